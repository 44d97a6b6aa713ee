#include "mimic/terms/dof_tree.hpp"

namespace mimic::terms {

bool supports(const model::Model& model, int a, int b) {
  for (int body = b; body >= 0; body = model.parents[body]) {
    if (body == a) return true;
  }
  return false;
}

int body_of_dof(const model::Model& model, int dof) {
  const int base_dofs = model.nv - model.nj;
  return dof < base_dofs ? 0 : model::Model::body_of_joint(dof - base_dofs);
}

}  // namespace mimic::terms
