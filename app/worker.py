"""The job worker as a process of its own: `python -m app.worker` (docs/background-work.md).
Run it beside web processes started with JOB_WORKER=off, as many as the work needs."""

import asyncio
import logging

import app.job_modules  # noqa: F401 - registers every job
from services.jobs import run_jobs
from services.logs import show_our_logs

if __name__ == "__main__":
    show_our_logs()
    logging.getLogger("procrastinate").setLevel(logging.INFO)
    asyncio.run(run_jobs())
