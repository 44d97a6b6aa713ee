// Forwarder: number text moved to core (issue 12, WP1) because every module that writes or reads text
// needs it, not only io. Kept so that existing includes compile; WP15 deletes it.
#pragma once

#include "mimic/core/number_text.hpp"

namespace mimic::io {

using core::append_number;
using core::append_time;
using core::format_number;
using core::NumberStatus;
using core::parse_number;
using core::ParsedNumber;

}  // namespace mimic::io
