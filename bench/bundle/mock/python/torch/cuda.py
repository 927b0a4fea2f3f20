"""torch.cuda of the fake torch: one device, events that report a fixed
time once both ends are recorded."""

FAKE_MS = 0.25  # what every pair of events measures on the mock


def is_available():
    return True


def get_device_name(device=None):
    return "mock GPU (fake torch)"


def synchronize(device=None):
    pass


def _sleep(cycles):
    if not isinstance(cycles, int) or cycles <= 0:
        raise TypeError("_sleep takes a positive int of cycles")


class Event:
    def __init__(self, enable_timing=False, blocking=False,
                 interprocess=False):
        self.enable_timing = enable_timing
        self.recorded = False

    def record(self, stream=None):
        self.recorded = True

    def synchronize(self):
        pass

    def elapsed_time(self, end_event):
        if not (self.enable_timing and end_event.enable_timing):
            raise RuntimeError("Both events must be created with argument "
                               "'enable_timing=True'.")
        if not (self.recorded and end_event.recorded):
            raise RuntimeError("Both events must be recorded before "
                               "calculating elapsed time.")
        return FAKE_MS
