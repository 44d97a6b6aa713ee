// Forwarder: the strict YAML reader moved to core (issue 12, WP1) so that model, walking and retarget
// can read their own configuration without depending on io. Kept so that existing includes compile;
// WP15 deletes it.
#pragma once

#include "mimic/core/strict_yaml.hpp"

namespace mimic::io {

using core::closest_name;
using core::describe_yaml_value;
using core::StrictMapping;
using core::YamlDocument;

}  // namespace mimic::io
