"""Serve this site from a production frontend already built for its port, as
`reflex run --env prod --single-port` serves it once its own build is done.

`reflex run` always builds again (about a minute); a server restarted on its build, or a second
server on a build made once for the port, starts in seconds. The build is the one in
REFLEX_WEB_WORKDIR, made for the port it is given (the port is part of the built pages' backend
URL). Run from the app's directory, with the environment `server.site_env` makes:
`python serve_built.py --backend-port PORT`, named as `reflex run` names the port.
"""

import argparse

from reflex.istate.manager import reset_disk_state_manager
from reflex.utils import exec as reflex_exec
from reflex_base import constants
from reflex_base.config import get_config
from reflex_base.environment import environment


def main() -> None:
    environment.REFLEX_ENV_MODE.set(constants.Env.PROD)
    environment.REFLEX_SKIP_COMPILE.set(True)
    reset_disk_state_manager()
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--backend-port", type=int, required=True)
    port = parser.parse_args().backend_port
    config = get_config()
    loglevel = config.loglevel.subprocess_level()
    reflex_exec.run_backend_prod(config.backend_host, port, loglevel, True)


if __name__ == "__main__":
    main()
