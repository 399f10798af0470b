#pragma once
// AddressSanitizer and SystemC's coroutines. Debian's SystemC tells ASan of every switch between
// coroutine stacks, but names the main stack as empty (no bottom, no size) when it switches back
// to it: once a simulation has run, ASan takes the thread's stack to be nothing. A C++ throw then
// skips its unpoisoning of the frames it unwinds ("ASan is ignoring requested
// __asan_handle_no_return"), and their stale redzones later read as stack-buffer-overflows in
// whatever code reuses that stack. Nothing of this exists outside sanitizer builds.
namespace polyarch::sim {

// Called on the thread's own stack once sc_start() has returned (or thrown): gives ASan the
// thread's real stack again and clears what is left poisoned below the caller's frame, which
// is dead stack. A no-op without ASan.
void resync_sanitizer_stack();

}  // namespace polyarch::sim
