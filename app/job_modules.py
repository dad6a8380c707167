"""Every module that registers jobs (services/jobs.py), imported by the web process and by
`python -m app.worker`, so that a worker knows every job it may be handed."""

import actions.data_export
import actions.notices  # noqa: F401 - each registers its jobs
import services.account_purge
import services.mail_job
import services.postbacks  # noqa: F401 - each registers its jobs
from services.jobs import periodic
from services.payments.provider import test_provider_serves
from services.payments.test_provider import default_test_provider

if test_provider_serves():  # the built-in test provider's overdue payments and refunds
    periodic("test_provider_sweep", cron="* * * * * */5")(default_test_provider().sweep)
