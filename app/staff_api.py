"""The console's HTTP routes, for moderators and admins (`@staff_route`: the same check as
every staff event; anyone else gets a plain 404): the transparency counters as CSV, and the
photo a photo report names, also once its member deleted it."""

import csv
import io
from datetime import date

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from actions.audit import audit_read
from actions.moderation_reads import period, transparency_counters
from actions.photo_files import evidence_file
from actions.runner import act, read
from actions.staff_viewer import StaffViewer
from app.photo_api import image_response
from app.staff_routes import staff_route
from models.staff_tools import EVIDENCE_PHOTO, MODERATION, TRANSPARENCY_CSV
from state.forms import browser_id

VIEWED_EVIDENCE_PHOTO = "report.view_evidence_photo"  # the audit log's action
NOT_STORED = 410  # staff only: no photo kept for the case (none, or past its retention)


@staff_route(*MODERATION)
async def transparency_csv(request: Request, staff: StaffViewer) -> Response:
    """?start=YYYY-MM-DD&end=YYYY-MM-DD (both included): section,key,value rows. Each download
    is audited with its period."""
    query = request.query_params
    first, last = period(
        "custom", "", query.get("start", "")[:10], query.get("end", "")[:10], date.today()
    )
    counters = await read(transparency_counters, first, last)
    period_after = {"start": first.isoformat(), "end": last.isoformat()}
    await act(audit_read, staff, "download_transparency_csv", period_after)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(("section", "key", "value"))
    writer.writerows(counters.csv_rows())
    name = f"transparency-{first.isoformat()}-{last.isoformat()}.csv"
    return Response(
        out.getvalue(),
        media_type="text/csv; charset=utf-8",
        headers={
            "Content-Disposition": f'attachment; filename="{name}"',
            "Cache-Control": "no-store",
        },
    )


@staff_route(*MODERATION)
async def evidence_photo(request: Request, staff: StaffViewer) -> Response:
    """The photo a photo report's snapshot names (app/pages/staff_console.py shows it with the
    case), never cached; each look audited with the case. 410 Gone, not 404, when no photo is
    kept for it: only staff get that far."""
    report_id = browser_id(request.path_params["report_id"])
    found = await read(evidence_file, report_id) if report_id else None
    if found is None:
        return Response(status_code=NOT_STORED, headers={"Cache-Control": "no-store"})
    await act(audit_read, staff, VIEWED_EVIDENCE_PHOTO, target=("report", report_id))
    return image_response(*found, {"Cache-Control": "no-store"})


def staff_routes() -> list[Route]:
    return [
        Route(TRANSPARENCY_CSV, transparency_csv, methods=["GET"]),
        Route(EVIDENCE_PHOTO, evidence_photo, methods=["GET"]),
    ]
