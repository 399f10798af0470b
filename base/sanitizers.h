#pragma once
// What a sanitizer build (`make sanitize`, `make tsan`) changes for the few places whose behaviour
// its runtime alters: ASan and TSan reserve terabytes of shadow address space at start-up, and
// LeakSanitizer reports what third-party libraries keep until exit.

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define POLYARCH_SANITIZED_ADDRESS_SPACE 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define POLYARCH_SANITIZED_ADDRESS_SPACE 1
#endif
#endif

#if defined(__SANITIZE_ADDRESS__)
#define POLYARCH_LEAK_CHECKED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define POLYARCH_LEAK_CHECKED 1
#endif
#endif

#ifdef POLYARCH_LEAK_CHECKED
#include <sanitizer/lsan_interface.h>
#endif

namespace polyarch {

// True when a sanitizer has reserved its shadow memory, so an address-space limit (RLIMIT_AS)
// would starve the sanitizer itself rather than bound polyarch.
#ifdef POLYARCH_SANITIZED_ADDRESS_SPACE
inline constexpr bool kAddressSpaceReservedBySanitizer = true;
#else
inline constexpr bool kAddressSpaceReservedBySanitizer = false;
#endif

// Allocations made by this thread while one of these lives are not reported as leaks: for
// library initialisation (MPI_Init) that keeps what it allocates until exit or drops it.
#ifdef POLYARCH_LEAK_CHECKED
using IgnoreLeaksInScope = __lsan::ScopedDisabler;
#else
struct IgnoreLeaksInScope {
  ~IgnoreLeaksInScope() {}  // not trivial, so that a scope guard is not an unused variable
};
#endif

// Runs LeakSanitizer's end-of-process check now, in a build that has one, and skips the one at
// exit: for processes whose libraries make live memory unreachable on the way out (OpenMPI
// unloading its plugins in MPI_Finalize).
inline void check_leaks_now() {
#ifdef POLYARCH_LEAK_CHECKED
  __lsan_do_leak_check();
#endif
}

}  // namespace polyarch
