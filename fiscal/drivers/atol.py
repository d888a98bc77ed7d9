"""ATOL's driver web server (ATOL Driver 10's "web server", on a computer of the club's
network beside the register): JSON tasks over HTTP.

    POST /api/v2/requests          {"uuid": <request id>, "request": [<task>, …]}
                                   201: queued; 409: that uuid is known already
    GET  /api/v2/requests/<uuid>   {"ready": …, "results": [{"status": "ready"|"wait"|
                                   "inProgress"|"error"|…, "errorCode": n,
                                   "errorDescription": "…", "result": {…}}]}; 404: unknown

A receipt's result carries ``fiscalParams`` (fiscalDocumentNumber, fiscalDocumentSign,
fiscalReceiptNumber, shiftNumber, fiscalDocumentDateTime, fnNumber). Only the standard
library is used (urllib).
"""

import base64
import json
import urllib.error
import urllib.request
import uuid as uuids
from datetime import datetime

from fiscal.drivers import (
    DONE,
    ERROR,
    OFD,
    OFFLINE,
    PAPER,
    PENDING,
    REFUSED,
    SHIFT_CLOSED,
    SHIFT_EXPIRED,
    SHIFT_OPEN,
    STORAGE,
    UNKNOWN,
    Driver,
    Outcome,
    RegisterUnreachable,
    Status,
)

# The driver's error codes the desk names (ATOL Driver 10's list); any other is "refused".
ERROR_REASONS = {
    2: OFFLINE,  # no connection with the register
    4: OFFLINE,  # the port is busy
    44: PAPER,  # no paper
    45: PAPER,  # the cover is open
    66: SHIFT_OPEN,  # not allowed in an open shift
    67: SHIFT_CLOSED,  # not allowed in a closed shift
    68: SHIFT_EXPIRED,  # the shift passed 24 hours
    100: STORAGE,  # the fiscal storage's memory is exhausted
    101: STORAGE,  # the fiscal storage's resource is exhausted
    102: OFD,  # 30 days without the OFD: the fiscal storage blocks
}
# ФФД 1.2 units (tag 2108) by name; earlier formats print the unit as text (tag 1197).
UNIT_TEXT = {"hour": "час", "piece": "шт."}


def roubles(kopecks):
    return round(kopecks / 100, 2)


def _moment(text):
    if not text:
        return None
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        return None


def atol_task(request):
    """A ``fiscal.receipts`` request (or a shift's / report's) as ATOL's JSON task."""
    kind = request["type"]
    if kind not in ("sell", "sellReturn", "sellCorrection"):
        task = {"type": kind}
        if request.get("operator"):
            task["operator"] = _operator(request["operator"])
        return task
    ffd_12 = request.get("ffd_12", True)
    task = {
        "type": kind,
        "taxationType": request["tax_system"],
        "operator": _operator(request.get("operator") or {}),
        "items": [_position(item, kind, ffd_12) for item in request["items"]],
        "payments": [{"type": p["type"], "sum": roubles(p["sum"])} for p in request["payments"]],
        "total": roubles(request["total"]),
    }
    if request.get("buyer"):
        task["clientInfo"] = {"emailOrPhone": request["buyer"]}
    if kind == "sellCorrection":
        correction = request.get("correction") or {}
        task["correctionType"] = correction.get("type", "self")
        task["correctionBaseDate"] = (correction.get("date") or "").replace("-", ".")
        task["correctionBaseNumber"] = ""
        if not ffd_12:
            task["correctionBaseName"] = correction.get("reason", "")
    return task


def _operator(operator):
    result = {"name": operator.get("name", "")}
    if operator.get("inn"):
        result["vatin"] = operator["inn"]
    return result


def _position(item, kind, ffd_12):
    position = {
        "type": "position",
        "name": item["name"],
        "price": roubles(item["price"]),
        "quantity": float(item["quantity"]),
        "amount": roubles(item["amount"]),
        "paymentMethod": item["method"],
        "paymentObject": item["object"],
        "tax": {"type": item["vat"]},
    }
    if ffd_12:
        position["measurementUnit"] = item["unit"]
    else:
        position["measurementUnit"] = UNIT_TEXT.get(item["unit"], item["unit"])
    if item.get("marking"):
        if ffd_12:
            position["paymentObject"] = "commodityWithMarking"
        position["imcParams"] = {
            "imcType": "auto",
            "imc": base64.b64encode(item["marking"].encode()).decode(),
            "itemEstimatedStatus": "itemPieceReturn" if kind == "sellReturn" else "itemPieceSold",
            "imcModeProcessing": 0,
        }
    return position


class AtolWebServer(Driver):
    name = "ATOL web server"

    def __init__(self, url, timeout=10):
        self.url = url.rstrip("/")
        self.timeout = timeout

    def _call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(
            self.url + path,
            data=data,
            method=method,
            headers={"Content-Type": "application/json; charset=utf-8"},
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                text = response.read()
                return response.status, json.loads(text) if text else {}
        except urllib.error.HTTPError as error:
            if error.code >= 500:
                raise RegisterUnreachable(f"HTTP {error.code}") from None
            text = error.read()
            try:
                return error.code, json.loads(text) if text else {}
            except ValueError:
                return error.code, {}
        except (TimeoutError, urllib.error.URLError, OSError, ValueError) as error:
            raise RegisterUnreachable(str(getattr(error, "reason", error))) from None

    def submit(self, request_id, request):
        status, answer = self._call(
            "POST", "/api/v2/requests", {"uuid": request_id, "request": [atol_task(request)]}
        )
        if status in (200, 201, 409):  # 409: it has this uuid already, made or making it
            return
        raise RegisterUnreachable(f"HTTP {status}: {answer}")

    def outcome(self, request_id):
        status, answer = self._call("GET", f"/api/v2/requests/{request_id}")
        if status == 404:
            return Outcome(UNKNOWN)
        if status != 200:
            raise RegisterUnreachable(f"HTTP {status}")
        results = answer.get("results") or []
        if not results:
            return Outcome(PENDING)
        first = results[0]
        state = first.get("status")
        if state == "ready":
            result = first.get("result") or {}
            return Outcome(DONE, params=result.get("fiscalParams") or result)
        if state in ("error", "interrupted", "blocked", "canceled"):
            code = int(first.get("errorCode") or 0)
            return Outcome(
                ERROR,
                reason=ERROR_REASONS.get(code, REFUSED),
                description=str(first.get("errorDescription") or ""),
                code=code,
            )
        return Outcome(PENDING)

    def status(self):
        request_id = f"status-{uuids.uuid4()}"
        tasks = [{"type": "getShiftStatus"}, {"type": "ofdExchangeStatus"}, {"type": "getFnInfo"}]
        self._call("POST", "/api/v2/requests", {"uuid": request_id, "request": tasks})
        answer = self._results(request_id)
        shift = (answer[0].get("result") or {}).get("shiftStatus") or {}
        ofd = (answer[1].get("result") or {}).get("status") or {} if len(answer) > 1 else {}
        fn = (answer[2].get("result") or {}).get("fnInfo") or {} if len(answer) > 2 else {}
        warnings = fn.get("warnings") or {}
        storage = ", ".join(key for key, on in sorted(warnings.items()) if on)
        state = shift.get("state")
        return Status(
            shift_open=None if state is None else state in ("opened", "expired"),
            shift_number=shift.get("number"),
            shift_expired=state == "expired",
            unsent_count=ofd.get("notSentCount"),
            oldest_unsent_at=_moment(ofd.get("notSentFirstDocDateTime")),
            storage_warning=storage,
        )

    def _results(self, request_id):
        import time

        deadline = time.monotonic() + self.timeout
        while True:
            status, answer = self._call("GET", f"/api/v2/requests/{request_id}")
            results = answer.get("results") or []
            if status == 200 and results and all(r.get("status") == "ready" for r in results):
                return results
            if any(r.get("status") == "error" for r in results):
                first = next(r for r in results if r.get("status") == "error")
                raise RegisterUnreachable(str(first.get("errorDescription") or "error"))
            if time.monotonic() >= deadline:
                raise RegisterUnreachable("timeout")
            time.sleep(0.05)
