"""Routes of matches and tournaments (namespace ``tournaments``)."""

from django.urls import path

from tournaments.views import fees, matches, tournaments

app_name = "tournaments"

MATCH = "marker/matches/<int:pk>/"
ONE = "tournaments/<int:pk>/"  # one tournament
ENTRANT = f"{ONE}entrants/<int:entrant_pk>/"

urlpatterns = [
    path("matches/<int:pk>/", matches.detail, name="match"),
    path("marker/matches/new/", matches.new, name="match_new"),
    path(f"{MATCH}next/", matches.next_frame, name="match_next"),
    path(f"{MATCH}reopen/", matches.reopen, name="match_reopen"),
    path(f"{MATCH}abandon/", matches.abandon, name="match_abandon"),
    # Public
    path("tournaments/", tournaments.tournament_list, name="list"),
    path(ONE, tournaments.detail, name="detail"),
    path(f"{ONE}board/", tournaments.board, name="board"),
    path(f"{ONE}board/stream/", tournaments.board_stream, name="board_stream"),
    path(f"{ONE}matches.csv", tournaments.matches_csv, name="matches_csv"),
    path(f"{ONE}protocol/", tournaments.protocol, name="protocol"),
    path(f"{ONE}protocol.csv", tournaments.protocol_csv, name="protocol_csv"),
    # Admins: the tournament, its entrants, then the evening at its desk (manage)
    path("tournaments/new/", tournaments.new, name="new"),
    path(f"{ONE}edit/", tournaments.edit, name="edit"),
    path(f"{ONE}manage/", tournaments.manage, name="manage"),
    path(f"{ONE}entrants/", tournaments.add_entrant, name="add_entrant"),
    path(f"{ENTRANT}remove/", tournaments.remove_entrant, name="remove_entrant"),
    path(f"{ENTRANT}withdraw/", tournaments.withdraw, name="withdraw"),
    path(f"{ENTRANT}approve/", tournaments.approve_entrant, name="approve"),
    path(f"{ENTRANT}check-in/", tournaments.desk_check_in, name="check_in"),
    path(f"{ONE}start/", tournaments.start, name="start"),
    path(f"{ONE}call/", tournaments.call_match, name="call"),
    path(f"{ONE}hold/", tournaments.hold, name="hold"),
    path(f"{ONE}walkover/", tournaments.walkover, name="walkover"),
    path(f"{ONE}matches/<int:match_pk>/undo/", tournaments.undo_result, name="undo"),
    # The desk's fees and prizes; the cashiers take the money and pay it out
    path(f"{ONE}fees/", fees.fees, name="fees"),
    path(f"{ONE}fees/take/", fees.take_fee, name="take_fee"),
    path(f"{ONE}fees/pay/", fees.pay_prize, name="pay_prize"),
    path(f"{ONE}fees/reverse/", fees.reverse_payout, name="reverse_payout"),
]
