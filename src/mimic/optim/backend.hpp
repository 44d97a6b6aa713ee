// Which solver runs an optimisation: the augmented Lagrangian of seed 000 or Ipopt. A header of its own so
// that the job schema (io) can name the choice without pulling in the solvers.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace mimic::optim {

enum class Backend : std::uint8_t { kAugmentedLagrangian, kIpopt };

// The one spelling of each back end, as `--solver` and the job's `solver.name` take it.
inline constexpr std::array<std::pair<Backend, std::string_view>, 2> kBackendNames = {
    {{Backend::kAugmentedLagrangian, "alm"}, {Backend::kIpopt, "ipopt"}}};

// "alm" or "ipopt"; throws std::invalid_argument on anything else.
Backend parse_backend(const std::string& name);
const char* to_string(Backend backend);

}  // namespace mimic::optim
