"""A stand-in of ATOL's driver web server on this machine, answering as its documentation
says: tasks POSTed to /api/v2/requests with their uuid (201; 409 for a uuid it has), each
one's result read with GET /api/v2/requests/<uuid> (404 for one it never got; "inProgress"
while it works, then "ready" with fiscalParams, or "error" with the driver's errorCode and
errorDescription). It keeps a register: its shift (open, closed, over 24 hours), paper, the
fiscal storage's warnings, the documents not sent to the OFD, and every document it made.

Knobs for the tests: ``delay`` (seconds each task takes), ``fail_next`` (errors the next
receipts meet: "paper", "expired"), ``lose_answers`` (that many POSTs are made but their
answer never comes: the client times out), ``down`` (every request waits past the client's
timeout, as a register switched off behind its web server).
"""

import json
import threading
import time
from datetime import datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

RECEIPTS = ("sell", "sellReturn", "sellCorrection")
NO_PAPER, DENIED_IN_OPEN, DENIED_IN_CLOSED, SHIFT_EXPIRED, BAD_TASK = 44, 66, 67, 68, 160


class Register:
    def __init__(self):
        self.lock = threading.Lock()
        self.requests = {}
        self.documents = []  # every fiscal document made: (type, task, params)
        self.made = []  # every receipt made: (the request's uuid, its task, its params)
        self.shift_state, self.shift_number, self.receipts_in_shift = "closed", 0, 0
        self.document_number = 100
        self.paper = True
        self.fn_warnings = {}
        self.unsent = []  # document moments not sent to the OFD
        self.delay = 0.0
        self.fail_next = []
        self.lose_answers = 0
        self.down = 0.0
        self.posts = 0

    # What the register does with one task ------------------------------------------------

    def run(self, task):
        kind = task.get("type")
        if kind in RECEIPTS:
            return self.receipt(task)
        if kind == "openShift":
            if self.shift_state != "closed":
                return self.error(DENIED_IN_OPEN, "Смена открыта - операция невозможна")
            self.shift_state, self.shift_number = "opened", self.shift_number + 1
            self.receipts_in_shift = 0
            return self.document("openShift", task)
        if kind == "closeShift":
            if self.shift_state == "closed":
                return self.error(DENIED_IN_CLOSED, "Смена закрыта - операция невозможна")
            result = self.document("closeShift", task)
            self.shift_state = "closed"
            return result
        if kind == "reportX":
            return self.document("reportX", task)
        if kind == "getShiftStatus":
            return self.ready(
                {"shiftStatus": {"state": self.shift_state, "number": self.shift_number}}
            )
        if kind == "ofdExchangeStatus":
            first = min(self.unsent) if self.unsent else None
            return self.ready(
                {
                    "status": {
                        "notSentCount": len(self.unsent),
                        "notSentFirstDocDateTime": first.isoformat() if first else None,
                    }
                }
            )
        if kind == "getFnInfo":
            return self.ready({"fnInfo": {"warnings": dict(self.fn_warnings)}})
        return self.error(BAD_TASK, f"Неизвестный тип задания {kind}")

    def receipt(self, task):
        if self.fail_next:
            failure = self.fail_next.pop(0)
            if failure == "paper":
                self.paper = False
            elif failure == "expired":
                self.shift_state = "expired"
        if not self.paper:
            return self.error(NO_PAPER, "Нет бумаги")
        if self.shift_state == "expired":
            return self.error(SHIFT_EXPIRED, "Смена превысила 24 часа")
        if self.shift_state == "closed":
            return self.error(DENIED_IN_CLOSED, "Смена закрыта - операция невозможна")
        items = task.get("items") or []
        total = task.get("total", 0)
        if abs(sum(item["amount"] for item in items) - total) > 0.001:
            return self.error(BAD_TASK, "Сумма позиций не равна итогу чека")
        if abs(sum(p["sum"] for p in task.get("payments") or []) - total) > 0.001:
            return self.error(BAD_TASK, "Сумма оплат не равна итогу чека")
        for item in items:
            if item.get("paymentObject") == "commodityWithMarking" and not item.get("imcParams"):
                return self.error(BAD_TASK, "Нет кода маркировки")
        self.receipts_in_shift += 1
        return self.document(task["type"], task, fiscalReceiptNumber=self.receipts_in_shift)

    def document(self, kind, task, **more):
        self.document_number += 1
        now = datetime.now().astimezone()
        params = {
            "fiscalDocumentNumber": self.document_number,
            "fiscalDocumentSign": str(3_000_000_000 + self.document_number * 7919),
            "fiscalDocumentDateTime": now.isoformat(timespec="seconds"),
            "fnNumber": "9999078900012345",
            "registrationNumber": "0000000001002292",
            "shiftNumber": self.shift_number,
            "fnsUrl": "www.nalog.gov.ru",
            **more,
        }
        if "total" in task:
            params["total"] = task["total"]
        self.documents.append((kind, task, params))
        self.unsent.append(now)
        return self.ready({"fiscalParams": params, "warnings": None})

    @staticmethod
    def ready(result):
        return {
            "status": "ready",
            "errorCode": 0,
            "errorDescription": "Ошибок нет",
            "result": result,
        }

    @staticmethod
    def error(code, description):
        return {
            "status": "error",
            "errorCode": code,
            "errorDescription": description,
            "result": None,
        }

    # Views of it for the tests ------------------------------------------------------------

    def receipts(self):
        return [(kind, task, params) for kind, task, params in self.documents if kind in RECEIPTS]

    def ofd_sends_everything(self):
        self.unsent = []

    def expire_shift(self):
        self.shift_state = "expired"

    def pass_days_without_ofd(self, days):
        self.unsent = [moment - timedelta(days=days) for moment in self.unsent] or [
            datetime.now().astimezone() - timedelta(days=days)
        ]


class Handler(BaseHTTPRequestHandler):
    register: Register  # set on the server's own subclass

    def log_message(self, *args):
        pass

    def answer(self, status, body=None):
        data = json.dumps(body).encode() if body is not None else b""
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except OSError:
            pass  # the client gave up waiting

    def do_POST(self):
        register = self.server.register
        if register.down:
            time.sleep(register.down)
            return self.answer(503)
        if self.path != "/api/v2/requests":
            return self.answer(404)
        length = int(self.headers.get("Content-Length") or 0)
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
            uuid, tasks = body["uuid"], body["request"]
        except (ValueError, KeyError, TypeError):
            return self.answer(400, {"error": {"code": 1, "description": "Невалидный JSON"}})
        with register.lock:
            register.posts += 1
            if uuid in register.requests:
                return self.answer(409, {"error": {"code": 2, "description": "uuid уже есть"}})
            tasks = tasks if isinstance(tasks, list) else [tasks]
            results = [register.run(task) for task in tasks]
            for task, result in zip(tasks, results, strict=True):
                if task.get("type") in RECEIPTS and result["status"] == "ready":
                    register.made.append((uuid, task, result["result"]["fiscalParams"]))
            register.requests[uuid] = {
                "tasks": tasks,
                "results": results,
                "ready_at": time.monotonic() + register.delay,
            }
            lose = register.lose_answers > 0
            if lose:
                register.lose_answers -= 1
        if lose:
            time.sleep(3)  # made, but the answer never reaches the client in time
            return None
        return self.answer(201, {"uuid": uuid, "number": len(register.requests)})

    def do_GET(self):
        register = self.server.register
        if register.down:
            time.sleep(register.down)
            return self.answer(503)
        prefix = "/api/v2/requests/"
        if not self.path.startswith(prefix):
            return self.answer(404)
        with register.lock:
            known = register.requests.get(self.path[len(prefix) :])
        if known is None:
            return self.answer(404, {"error": {"code": 404, "description": "Задание не найдено"}})
        if time.monotonic() < known["ready_at"]:
            results = [
                {"status": "inProgress", "errorCode": 0, "result": None} for _ in known["tasks"]
            ]
            return self.answer(200, {"ready": False, "results": results})
        return self.answer(200, {"ready": True, "results": known["results"]})


class AtolStandIn:
    """The stand-in served in a thread: ``url`` for the club's settings, ``register``."""

    def __init__(self):
        self.register = Register()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.register = self.register
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    def start(self):
        self.thread.start()
        return self

    def stop(self):
        self.server.shutdown()
        self.server.server_close()
