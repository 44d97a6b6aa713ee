#include "mimic/optim/backend.hpp"

#include <stdexcept>

namespace mimic::optim {

Backend parse_backend(const std::string& name) {
  for (const auto& [backend, spelling] : kBackendNames) {
    if (spelling == name) return backend;
  }
  throw std::invalid_argument("unknown solver '" + name + "' (expected alm or ipopt)");
}

const char* to_string(Backend backend) {
  for (const auto& [candidate, spelling] : kBackendNames) {
    if (candidate == backend) return spelling.data();
  }
  return "?";
}

}  // namespace mimic::optim
