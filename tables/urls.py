from django.urls import path

from tables import views

app_name = "tables"

urlpatterns = [
    # Table management (admins)
    path("", views.table_list, name="list"),
    path("new/", views.table_create, name="create"),
    path("qr/", views.table_qr_sheet, name="qr_sheet"),
    path("<int:pk>/edit/", views.table_edit, name="edit"),
    path("<int:pk>/activate/", views.table_activate, name="activate"),
    path("<int:pk>/deactivate/", views.table_deactivate, name="deactivate"),
    path("<int:pk>/out-of-service/", views.table_out_of_service, name="out_of_service"),
    path("<int:pk>/back-in-service/", views.table_back_in_service, name="back_in_service"),
    path("export.csv", views.tables_export, name="export"),
]
