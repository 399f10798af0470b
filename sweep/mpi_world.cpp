#include "sweep/mpi_world.h"

#include <cstdlib>
#include <string>

#include "base/error.h"
#include "base/sanitizers.h"

#ifdef POLYARCH_HAVE_MPI
#include <mpi.h>
#endif

namespace polyarch::sweep {

namespace {

// The world size the launcher announces in the environment (OpenMPI, MPICH/PMI, PMIx); 1 when
// none did. Read before MPI_Init so that a run outside mpirun never initialises MPI.
int launcher_world_size() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"}) {
    const char* value = std::getenv(name);
    if (value == nullptr) continue;
    char* end = nullptr;
    long size = std::strtol(value, &end, 10);
    if (end != value && *end == '\0' && size >= 1) return static_cast<int>(size);
  }
  return 1;
}

}  // namespace

bool MpiWorld::available() {
#ifdef POLYARCH_HAVE_MPI
  return true;
#else
  return false;
#endif
}

#ifdef POLYARCH_HAVE_MPI

MpiWorld::MpiWorld() {
  if (launcher_world_size() <= 1) return;
  int already = 0;
  MPI_Initialized(&already);
  if (!already) {
    IgnoreLeaksInScope openmpi_loads_and_drops_plugins;
    MPI_Init(nullptr, nullptr);
    initialised_ = true;
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiWorld::~MpiWorld() {
  if (!initialised_) return;
  // MPI_Finalize unloads OpenMPI's plugins, and what they still pointed to looks leaked from then
  // on: check for leaks while everything MPI holds is reachable (the exit check is then skipped).
  check_leaks_now();
  MPI_Finalize();
}

void MpiWorld::send(int to, int tag, const std::string& bytes) const {
  if (size_ <= 1) throw_runtime({}, "MPI send in a world of one rank");
  MPI_Send(bytes.data(), static_cast<int>(bytes.size()), MPI_CHAR, to, tag, MPI_COMM_WORLD);
}

std::optional<MpiMessage> MpiWorld::poll() const {
  if (size_ <= 1) return std::nullopt;  // MPI was never initialised: nobody else to hear from
  int arrived = 0;
  MPI_Status status;
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &arrived, &status);
  if (!arrived) return std::nullopt;
  int count = 0;
  MPI_Get_count(&status, MPI_CHAR, &count);
  MpiMessage message{status.MPI_SOURCE, status.MPI_TAG, std::string(static_cast<std::size_t>(count), '\0')};
  MPI_Recv(message.bytes.data(), count, MPI_CHAR, status.MPI_SOURCE, status.MPI_TAG,
           MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return message;
}

void MpiWorld::abort(int exit_code) const {
  if (size_ > 1) MPI_Abort(MPI_COMM_WORLD, exit_code);
  std::_Exit(exit_code);
}

#else

MpiWorld::MpiWorld() {
  if (launcher_world_size() > 1) {
    throw_bad_input({}, "started by mpirun with " + std::to_string(launcher_world_size()) +
                            " ranks, but this polyarch was built without MPI (install "
                            "libopenmpi-dev and rebuild, or split the sweep with --shard i/N)");
  }
}

MpiWorld::~MpiWorld() = default;

void MpiWorld::send(int, int, const std::string&) const {
  throw_runtime({}, "MPI send in a world of one rank");
}

std::optional<MpiMessage> MpiWorld::poll() const { return std::nullopt; }

void MpiWorld::abort(int exit_code) const { std::_Exit(exit_code); }

#endif

}  // namespace polyarch::sweep
