// Umbrella header of the spatial algebra (seed 002 conventions: motion [v; w], force [f; tau]).
#pragma once

#include "mimic/spatial/adjoint.hpp"
#include "mimic/spatial/explog.hpp"
#include "mimic/spatial/force.hpp"
#include "mimic/spatial/inertia.hpp"
#include "mimic/spatial/motion.hpp"
#include "mimic/spatial/se3.hpp"
#include "mimic/spatial/types.hpp"
