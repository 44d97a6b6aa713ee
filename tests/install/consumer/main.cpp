// Loads HRP-2 from the installed data directory and prints its mass and its centre of mass in the nominal
// pose (the numbers of `mimic info models/hrp2.urdf`), through the installed headers and libraries.
#include <cstdio>
#include <exception>
#include <string>

#include "mimic/core/error.hpp"
#include "mimic/dynamics/com.hpp"
#include "mimic/model/data.hpp"
#include "mimic/model/robot.hpp"

int main(int argc, char** argv) {
  const std::string data_dir = argc > 1 ? argv[1] : CONSUMER_DATA_DIR;
  try {
    const mimic::model::Robot robot = mimic::model::load_robot(data_dir + "/config/robots/hrp2.yaml");
    mimic::model::Data data(robot.model);
    const auto com =
        mimic::dynamics::center_of_mass(robot.model, data, robot.description.nominal_q(robot.model));
    // The wording of `mimic info`, which tests/install/install_check.py compares.
    std::printf(
        "data directory: %s\ntotal mass: %.4f kg\ncentre of mass in nominal pose: (%.5f, %.5f, %.5f) m\n",
        data_dir.c_str(), robot.model.total_mass(), com.x(), com.y(), com.z());
  } catch (const mimic::Error& e) {
    std::fprintf(stderr, "consumer: %s\n", e.what());
    return 3;
  }
  return 0;
}
