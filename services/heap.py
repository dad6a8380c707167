"""A process's heap as it is now, frozen out of the garbage collector's full passes."""

import gc


def freeze_heap() -> None:
    """Move every object alive now out of the collector's reach, so that a full collection
    scans only what is made after: for the web process once warm (the compiled app, the
    catalogues, the landers' place-name index: several hundred thousand objects; in
    bench/capacity.py's workers a full pass took 9-98 ms after, 85-136 ms before, a pause every
    event of the worker waits out), and for the benches' own clients while they time. Collected
    first, so that the garbage so far is not frozen with them."""
    gc.collect()
    gc.freeze()
