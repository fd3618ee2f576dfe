"""What a crash or a sanitizer report prints: text that fails a test wherever
it shows up (stderr, the REPL's screen), whatever the exit code said."""

SANITIZER_MARKERS = (
    "ERROR: AddressSanitizer",
    "ERROR: LeakSanitizer",
    "runtime error: ",
    "WARNING: ThreadSanitizer",
)

CRASH_MARKERS = (
    "Segmentation fault",
    "terminate called",
    "core dumped",
    "Fatal error",
    "Check failed",
    "CHECK failed",
) + SANITIZER_MARKERS
