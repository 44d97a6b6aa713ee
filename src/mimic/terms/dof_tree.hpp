// Which degrees of freedom move which body: the structure the terms' sparsity patterns come from.
#pragma once

#include "mimic/model/model.hpp"

namespace mimic::terms {

// True when body `a` is `b` or one of its ancestors.
bool supports(const model::Model& model, int a, int b);

// The body that dof `dof` moves: the root (0) for the free-flyer's six dofs.
int body_of_dof(const model::Model& model, int dof);

// True when dof `dof` moves body `body` (the dof's body supports it).
inline bool moves(const model::Model& model, int dof, int body) {
  return supports(model, body_of_dof(model, dof), body);
}

}  // namespace mimic::terms
