#pragma once
// Test-only helpers for driving SystemC modules outside simulate(): a fresh context per test
// and a module that runs a function as an SC_THREAD.
#include <functional>
#include <systemc>
#include <utility>

#include "sim/kernel/sanitizer_stack.h"

namespace polyarch::sim::harness {

class ScopedSimContext {
 public:
  ScopedSimContext() {
    context_ = new sc_core::sc_simcontext();
    sc_core::sc_curr_simcontext = context_;
    sc_core::sc_default_global_context = context_;
  }
  ~ScopedSimContext() {
    resync_sanitizer_stack();  // the test may have run sc_start(): see sanitizer_stack.h
    delete context_;
    sc_core::sc_curr_simcontext = nullptr;
    sc_core::sc_default_global_context = nullptr;
  }

 private:
  sc_core::sc_simcontext* context_;
};

class ThreadModule : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(ThreadModule);
  ThreadModule(sc_core::sc_module_name name, std::function<void()> body)
      : sc_core::sc_module(name), body_(std::move(body)) {
    SC_THREAD(run);
  }

 private:
  void run() {
    clear_stale_coroutine_stack_poison();  // see sanitizer_stack.h
    body_();
  }
  std::function<void()> body_;
};

}  // namespace polyarch::sim::harness
