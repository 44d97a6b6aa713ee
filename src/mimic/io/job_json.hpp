// A job's effective settings as JSON, with the same keys as the job YAML, for the `--report` file: a
// report then says exactly which settings produced it, and (JSON being YAML) can be fed back as a job.
#pragma once

#include "mimic/io/job.hpp"
#include "mimic/io/json.hpp"

namespace mimic::io {

Json job_to_json(const JobConfig& job);

}  // namespace mimic::io
