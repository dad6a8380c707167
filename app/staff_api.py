"""The console's HTTP routes: the transparency counters as CSV, for moderators and admins
(`@staff_route`: the same check as every staff event; anyone else gets a plain 404)."""

import csv
import io
from datetime import date

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from actions.audit import audit_read
from actions.moderation_reads import period, transparency_counters
from actions.runner import act, read
from actions.staff_viewer import StaffViewer
from app.staff_routes import staff_route
from models.staff_tools import MODERATION, TRANSPARENCY_CSV


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


def staff_routes() -> list[Route]:
    return [Route(TRANSPARENCY_CSV, transparency_csv, methods=["GET"])]
