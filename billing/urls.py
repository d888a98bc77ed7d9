"""Routes of billing, mounted at /billing/."""

from django.urls import path

from billing.views import bills, desk, reports, shifts, tariffs

app_name = "billing"

urlpatterns = [
    # Tariffs and the price preview (admins)
    path("tariffs/", tariffs.tariffs, name="tariffs"),
    # The tables' clocks (cashiers and admins)
    path("desk/", desk.desk, name="desk"),
    path("tables/<int:number>/start/", desk.start, name="start"),
    path("sessions/<int:pk>/", desk.session_page, name="session"),
    path("sessions/<int:pk>/pause/", desk.pause, name="pause"),
    path("sessions/<int:pk>/resume/", desk.resume, name="resume"),
    path("sessions/<int:pk>/stop/", desk.stop, name="stop"),
    path("sessions/<int:pk>/move/", desk.move, name="move"),
    path("sessions/<int:pk>/void/", desk.void, name="void"),
    path("sessions/<int:pk>/correct/", desk.correct, name="correct"),
    # Bills (cashiers and admins)
    path("bills/<int:pk>/", bills.bill, name="bill"),
    path("bills/<int:pk>/bar/", bills.add_bar, name="add_bar"),
    path("bills/<int:pk>/remove-line/", bills.remove_line, name="remove_line"),
    path("bills/<int:pk>/discount/", bills.discount, name="discount"),
    path("bills/<int:pk>/payers/", bills.add_payer, name="add_payer"),
    path("bills/<int:pk>/remove-payer/", bills.remove_payer, name="remove_payer"),
    path("bills/<int:pk>/split/", bills.split, name="split"),
    path("bills/<int:pk>/pay/", bills.pay, name="pay"),
    path("bills/<int:pk>/refund/", bills.refund, name="refund"),
    # Shifts, reports, bookings (cashiers and admins)
    path("shift/", shifts.shift, name="shift"),
    path("reports/", reports.reports, name="reports"),
    path("reports/payments.csv", reports.payments_csv, name="payments_csv"),
    path("reports/shifts.csv", reports.shifts_csv, name="shifts_csv"),
    path("reports/revenue.csv", reports.revenue_csv, name="revenue_csv"),
    path("bookings/", shifts.bookings, name="bookings"),
    path("bookings/<int:pk>/<str:action>/", shifts.booking_action, name="booking_action"),
    # A table's clock on its board (public)
    path("tables/<int:number>/clock/", desk.board_clock, name="board_clock"),
]
