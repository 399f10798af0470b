#pragma once
// Runs a sweep's jobs in worker processes, on this machine and, under mpirun, on every rank.
// Rank 0 owns the job list and the database: it runs up to `slots` jobs in its own worker pool
// and hands the others out one at a time to the other ranks, each of which runs up to `slots`
// at once and sends every answer back. Handing out on request (rather than a fixed split)
// keeps fast and slow points balanced; which rank ran a job never changes its result, since
// every rank plans the same points from the same files.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "sweep/mpi_world.h"
#include "sweep/worker_pool.h"

namespace polyarch::sweep {

// Simulates the job with this id and returns its encoded result (runs in a forked child). Ids
// mean the same job on every rank.
using RunJob = std::function<std::string(std::size_t id)>;
// Receives each finished job on rank 0, in the order answers arrive.
using JobFinished = std::function<void(std::size_t id, const FinishedJob& finished)>;

// Rank 0: runs the jobs with these ids over the world and returns when all have finished and
// every other rank has been told to stop.
void dispatch_jobs(const MpiWorld& world, const std::vector<std::size_t>& ids, int slots,
                   const RunJob& run, const JobFinished& finished);

// Every other rank: runs what rank 0 hands out until it says stop.
void serve_jobs(const MpiWorld& world, int slots, const RunJob& run);

}  // namespace polyarch::sweep
