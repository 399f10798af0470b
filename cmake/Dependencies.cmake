# Finds every third-party dependency (all from Debian). A missing one does not stop at the first:
# configuration fails once, naming the exact apt-get line that installs everything missing.
set(POLYARCH_MISSING_DEBS "")

macro(polyarch_need found debian_package)
  if(NOT ${found})
    list(APPEND POLYARCH_MISSING_DEBS ${debian_package})
  endif()
endmacro()

find_package(PkgConfig)
polyarch_need(PkgConfig_FOUND pkg-config)
if(PkgConfig_FOUND)
  pkg_check_modules(SYSTEMC IMPORTED_TARGET systemc)
  polyarch_need(SYSTEMC_FOUND libsystemc-dev)
endif()
find_package(Boost 1.74 QUIET)
polyarch_need(Boost_FOUND libboost-graph-dev)
if(Boost_FOUND AND NOT EXISTS "${Boost_INCLUDE_DIRS}/boost/graph/adjacency_list.hpp")
  list(APPEND POLYARCH_MISSING_DEBS libboost-graph-dev)
endif()
find_package(yaml-cpp QUIET)
polyarch_need(yaml-cpp_FOUND libyaml-cpp-dev)
find_package(nlohmann_json 3 QUIET)
polyarch_need(nlohmann_json_FOUND nlohmann-json3-dev)
find_package(OpenSSL QUIET COMPONENTS Crypto)
polyarch_need(OpenSSL_FOUND libssl-dev)
find_package(GTest QUIET)
polyarch_need(GTest_FOUND "libgtest-dev libgmock-dev")
find_package(benchmark QUIET)
polyarch_need(benchmark_FOUND libbenchmark-dev)
# ONNX models are protobuf messages; Debian's libonnx-dev ships the generated onnx_proto target.
find_package(Protobuf QUIET)
polyarch_need(Protobuf_FOUND libprotobuf-dev)
find_package(ONNX QUIET)
polyarch_need(ONNX_FOUND libonnx-dev)
# Sweep results go to SQLite (sweep/): CMake's own FindSQLite3 module.
find_package(SQLite3 QUIET)
polyarch_need(SQLite3_FOUND libsqlite3-dev)
# The Python module (python/) needs pybind11 and the interpreter's headers; `make deps` installs
# them, but the program builds without them (python/CMakeLists.txt says what is missing).
find_package(Python3 QUIET COMPONENTS Interpreter Development.Module)
if(Python3_Development.Module_FOUND)
  set(PYBIND11_FINDPYTHON ON)
  find_package(pybind11 2.6 CONFIG QUIET)
endif()

if(POLYARCH_MISSING_DEBS)
  list(REMOVE_DUPLICATES POLYARCH_MISSING_DEBS)
  string(REPLACE ";" " " _missing "${POLYARCH_MISSING_DEBS}")
  message(FATAL_ERROR "polyarch: missing Debian packages. Install them with:\n"
                      "  sudo apt-get install -y ${_missing}\n(or run `make deps` as root)")
endif()

# Debian's SystemC 2.3.4 was built as C++17; without this, C++20 code fails to link on
# sc_api_version_2_3_4_cxx202002L.
add_library(polyarch_systemc INTERFACE)
target_link_libraries(polyarch_systemc INTERFACE PkgConfig::SYSTEMC)
target_compile_definitions(polyarch_systemc INTERFACE SC_CPLUSPLUS=201703L)
# libsystemc.so references sc_main (its own main calls it). polyarch defines one in
# sim/kernel/sc_main_entry.cpp; this makes the linker pull that object out of the static
# polyarch_sim archive into every program that links SystemC.
target_link_options(polyarch_systemc INTERFACE "LINKER:--undefined=sc_main")
