// The solver settings of a job (io::SolverSettings) as the options of either back end (optim::solve), for
// every optimisation stage (the imitation / torque motion problem, the smoothing problem).
#pragma once

#include "mimic/io/job.hpp"
#include "mimic/optim/solver.hpp"

namespace mimic::motion {

optim::SolverOptions solver_options(const io::SolverSettings& settings);

}  // namespace mimic::motion
