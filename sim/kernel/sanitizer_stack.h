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

// Called first thing in every SC_THREAD body. SystemC maps each simulation's coroutine stacks
// afresh, often where the previous simulation's were, and a thread that simulation left
// suspended never cleared its frames' redzones: their shadow outlives the unmapped stack and
// would read as overflows of this coroutine's own locals. Clears the coroutine's stack below
// the caller's frame (not yet used). A no-op without ASan.
void clear_stale_coroutine_stack_poison();

}  // namespace polyarch::sim
