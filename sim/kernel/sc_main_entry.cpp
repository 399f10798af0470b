// libsystemc.so carries its own main() that calls the user's sc_main(), so the shared library
// has an undefined reference to sc_main. polyarch has its own main and enters SystemC only
// through sim::simulate(), so this definition only satisfies the linker; reaching it is a bug.
#include <cstdio>

extern "C" int sc_main(int /*argc*/, char* /*argv*/[]) {
  std::fputs("polyarch: internal error: SystemC's sc_main entry point was called\n", stderr);
  return 1;
}
