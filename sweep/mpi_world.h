#pragma once
// The MPI world a sweep runs in. Under `mpirun -n N` (and a polyarch built with Debian's
// OpenMPI, which CMake finds when installed) it is N ranks; otherwise a world of one rank that
// never touches MPI, so a plain run pays nothing for it. Messages are tagged byte strings: the
// sweep's protocol (sweep/job_dispatch.h) needs no more.
#include <optional>
#include <string>

namespace polyarch::sweep {

struct MpiMessage {
  int source = 0;
  int tag = 0;
  std::string bytes;
};

class MpiWorld {
 public:
  // Initialises MPI when this process was started by mpirun with more than one rank. Started so
  // by a polyarch built without MPI, it throws a bad-input error (every rank would otherwise
  // run the whole sweep into the same database).
  MpiWorld();
  ~MpiWorld();  // MPI_Finalize when it was initialised
  MpiWorld(const MpiWorld&) = delete;
  MpiWorld& operator=(const MpiWorld&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  bool distributed() const { return size_ > 1; }

  void send(int to, int tag, const std::string& bytes) const;
  // A message that has arrived from any rank, if one has; never blocks.
  std::optional<MpiMessage> poll() const;
  // Ends every rank (after an error on one of them, which the others would wait for forever).
  [[noreturn]] void abort(int exit_code) const;

  // Whether polyarch was built with MPI support.
  static bool available();

 private:
  int rank_ = 0;
  int size_ = 1;
  bool initialised_ = false;
};

}  // namespace polyarch::sweep
