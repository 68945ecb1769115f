"""One line per check; a failure makes the run exit non-zero."""

import sys
import time
import traceback


class CheckFailed(Exception):
    pass


def expect(condition, detail):
    if not condition:
        raise CheckFailed(detail)


class Reporter:
    def __init__(self, stream=sys.stdout, verbose=False):
        self.stream = stream
        self.verbose = verbose
        self.passed = 0
        self.failed = 0
        self.skipped = 0
        self.failures = []
        self.notes = []

    def _line(self, status, name, detail):
        text = "%-4s %s" % (status, name)
        if detail:
            text += " -- " + detail
        print(text, file=self.stream, flush=True)

    def check(self, name, fn, *args, **kwargs):
        """Runs fn; it returns a detail string (or None) on success and raises on failure.
        Returns fn's result wrapped: (ok, value)."""
        start = time.monotonic()
        try:
            value = fn(*args, **kwargs)
        except CheckFailed as e:
            self.failed += 1
            self.failures.append(name)
            self._line("FAIL", name, str(e))
            return False, None
        except Exception as e:  # an unexpected error is a failure too
            self.failed += 1
            self.failures.append(name)
            self._line("FAIL", name, "%s: %s" % (type(e).__name__, e))
            if self.verbose:
                traceback.print_exc()
            return False, None
        detail = value if isinstance(value, str) else None
        if isinstance(value, tuple) and value and isinstance(value[0], str):
            detail = value[0]
        elapsed = time.monotonic() - start
        if self.verbose:
            detail = (detail + " " if detail else "") + "(%.0f ms)" % (elapsed * 1000)
        self.passed += 1
        self._line("PASS", name, detail)
        return True, value

    def skip(self, name, why):
        self.skipped += 1
        self._line("SKIP", name, why)

    def fail(self, name, why):
        self.failed += 1
        self.failures.append(name)
        self._line("FAIL", name, why)

    def note(self, text):
        self.notes.append(text)
        print("NOTE " + text, file=self.stream, flush=True)

    def summary(self):
        line = "%d passed, %d failed" % (self.passed, self.failed)
        if self.skipped:
            line += ", %d skipped" % self.skipped
        print(line, file=self.stream, flush=True)
        return self.failed == 0
