// Forwarder: VelocityRows moved to terms/velocity_rows.hpp (issue 12, WP9); WP11 deletes this header.
#pragma once

#include "mimic/terms/velocity_rows.hpp"

namespace mimic::motion {
using terms::VelocityRows;
}  // namespace mimic::motion
