#include "sim/kernel/sanitizer_stack.h"

#if defined(__SANITIZE_ADDRESS__)
#define POLYARCH_WITH_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define POLYARCH_WITH_ASAN 1
#endif
#endif

#ifdef POLYARCH_WITH_ASAN
#include <pthread.h>
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>

#include <cstddef>
#include <cstdint>
#endif

namespace polyarch::sim {

#ifdef POLYARCH_WITH_ASAN

void resync_sanitizer_stack() {
  pthread_attr_t attributes;
  if (pthread_getattr_np(pthread_self(), &attributes) != 0) return;
  void* low = nullptr;
  std::size_t size = 0;
  const bool known = pthread_attr_getstack(&attributes, &low, &size) == 0;
  pthread_attr_destroy(&attributes);
  auto* const bottom = static_cast<char*>(low);
  char here = 0;
  // Only where this really is the thread's stack (not a coroutine's: a nested run).
  if (!known || &here < bottom || &here >= bottom + size) return;
  void* fake_stack = nullptr;
  __sanitizer_start_switch_fiber(&fake_stack, bottom, size);
  __sanitizer_finish_switch_fiber(fake_stack, nullptr, nullptr);
  // Below this frame the stack is dead: unpoisoning it (and this frame's own redzones, which its
  // epilogue clears anyway) costs nothing but the checks of memory no one uses. The calls a
  // simulation makes on this stack stay far within the 8 MiB cleared; with an unlimited stack
  // size the thread's stack may reach gigabytes.
  constexpr std::uintptr_t kDeepest = std::uintptr_t{8} << 20;
  const auto frame = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
  const auto low_end = reinterpret_cast<std::uintptr_t>(bottom);
  const std::uintptr_t from = frame - low_end > kDeepest ? frame - kDeepest : low_end;
  __asan_unpoison_memory_region(reinterpret_cast<void*>(from), frame - from);
}

void clear_stale_coroutine_stack_poison() {
  // ASan has no query for the current stack's bounds, but ending a switch reports the bounds it
  // leaves: switch to "no stack" and back to the bounds that reports.
  void* fake_stack = nullptr;
  const void* low = nullptr;
  std::size_t size = 0;
  __sanitizer_start_switch_fiber(&fake_stack, nullptr, 0);
  __sanitizer_finish_switch_fiber(fake_stack, &low, &size);
  void* restored_fake_stack = nullptr;
  __sanitizer_start_switch_fiber(&restored_fake_stack, low, size);
  __sanitizer_finish_switch_fiber(restored_fake_stack, nullptr, nullptr);
  const auto bottom = reinterpret_cast<std::uintptr_t>(low);
  const auto frame = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
  if (bottom == 0 || frame <= bottom || frame >= bottom + size) return;
  __asan_unpoison_memory_region(const_cast<void*>(low), frame - bottom);
}

#else

void resync_sanitizer_stack() {}
void clear_stale_coroutine_stack_poison() {}

#endif

}  // namespace polyarch::sim
