// Reference timings of Pinocchio's C++ algorithms, for comparison with urdf2dyn.
//
// Built by benchmarks/_pinbuild.py against the headers and shared libraries of the
// `pin` PyPI wheel (cmeel layout). Not part of the urdf2dyn package.
//
// Usage:
//   pin_rnea_bench URDF FLOATING N REPS [ALGO] [SEED] [MODE]
//     URDF      path to a URDF file
//     FLOATING  1: add a free-flyer root joint (pinocchio::JointModelFreeFlyer), 0: fixed base
//     N         number of random samples (states)
//     REPS      number of timed passes over all N samples; the best pass is reported
//     ALGO      rnea (default) | crba | aba | fk (forwardKinematics(q)) | fkva (forwardKinematics(q,v,a))
//               | rnea_deriv (computeRNEADerivatives) | aba_deriv (computeABADerivatives)
//               | framejac (computeFrameJacobian of the last URDF link, LOCAL)
//               | framejacdot (computeJointJacobiansTimeVariation + getFrameJacobianTimeVariation,
//                 LOCAL_WORLD_ALIGNED, last link) | frameacc (forwardKinematics(q,v,a) +
//                 getFrameClassicalAcceleration, LOCAL_WORLD_ALIGNED, last link)
//     SEED      seed for std::srand (default 42)
//     MODE      hot (default): results stay in pinocchio::Data, the usual C++ loop;
//               store: every timed pass also writes each sample's result into an output array
//               (allocated and touched before timing), as a batched API must (tau, ddq: nv;
//               M: nv x nv as computed, upper triangle; fk: 12 numbers per link)
//   fk places every BODY frame (one per URDF link): forwardKinematics + updateFramePlacement.
//
//   pin_rnea_bench URDF FLOATING --eval-rnea
//     Validation mode: reads whitespace-separated samples "q(nq) v(nv) a(nv)" from stdin until EOF
//     and prints tau = rnea(q, v, a) for each, one line per sample (%.17g).
//
// Output of a timing run: exactly one line on stdout, a JSON object, e.g.
//   {"algo": "rnea", "nq": 7, "nv": 6, "n": 20000, "reps": 5, "best_ns": 612.3, "median_ns": 620.1,
//    "checksum": 1.2345}
// best_ns / median_ns are nanoseconds per sample (one algorithm call). Errors go to stderr with a
// non-zero exit status.
//
// Random states: q = pinocchio::randomConfiguration(model, lo, hi), where lo/hi are the model's
// position limits with every non-finite bound (e.g. the free-flyer translation) replaced by -1/+1;
// v, a and (for aba) tau are uniform in [-1, 1]^nv.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <limits>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "pinocchio/parsers/urdf.hpp"
#include "pinocchio/parsers/mjcf.hpp"
#include "pinocchio/algorithm/joint-configuration.hpp"
#include "pinocchio/algorithm/kinematics.hpp"
#include "pinocchio/algorithm/rnea.hpp"
#include "pinocchio/algorithm/crba.hpp"
#include "pinocchio/algorithm/aba.hpp"
#include "pinocchio/algorithm/frames.hpp"
#include "pinocchio/algorithm/rnea-derivatives.hpp"
#include "pinocchio/algorithm/aba-derivatives.hpp"
#include "pinocchio/algorithm/jacobian.hpp"
#include <memory>

namespace
{

  void usage(const char * prog)
  {
    std::fprintf(
      stderr,
      "usage: %s URDF FLOATING(0|1) N REPS [rnea|crba|aba|fk|fkva|rnea_deriv|aba_deriv] [SEED] [hot|store]\n"
      "       %s URDF FLOATING(0|1) --eval-rnea   (reads q v a samples from stdin)\n",
      prog, prog);
  }

  void load_model(const std::string & path, bool floating, pinocchio::Model & model)
  {
    // an MJCF model (benchmarks/bench_mjcf.py): its free joints are its own; its armature is
    // kept, which Pinocchio's RNEA adds as urdf2dyn's does
    if (path.size() > 4 && path.compare(path.size() - 4, 4, ".xml") == 0)
    {
      pinocchio::mjcf::buildModel(path, model);
      return;
    }
    if (floating)
      pinocchio::urdf::buildModel(path, pinocchio::JointModelFreeFlyer(), model);
    else
      pinocchio::urdf::buildModel(path, model);
  }

  int eval_rnea(const pinocchio::Model & model)
  {
    pinocchio::Data data(model);
    Eigen::VectorXd q(model.nq), v(model.nv), a(model.nv);
    std::vector<double> buf;
    double x;
    while (std::cin >> x)
      buf.push_back(x);
    const std::size_t per = static_cast<std::size_t>(model.nq + 2 * model.nv);
    if (buf.size() % per != 0)
    {
      std::fprintf(
        stderr, "eval-rnea: got %zu numbers, not a multiple of nq+2nv=%zu\n", buf.size(), per);
      return 2;
    }
    for (std::size_t s = 0; s < buf.size() / per; ++s)
    {
      const double * p = buf.data() + s * per;
      for (int i = 0; i < model.nq; ++i)
        q[i] = p[i];
      for (int i = 0; i < model.nv; ++i)
        v[i] = p[model.nq + i];
      for (int i = 0; i < model.nv; ++i)
        a[i] = p[model.nq + model.nv + i];
      pinocchio::rnea(model, data, q, v, a);
      for (int i = 0; i < model.nv; ++i)
        std::printf(i ? " %.17g" : "%.17g", data.tau[i]);
      std::printf("\n");
    }
    return 0;
  }

  enum class Algo
  {
    RNEA,
    CRBA,
    ABA,
    FK,
    FKVA,
    RNEA_DERIV,
    ABA_DERIV,
    FRAMEJAC,
    FRAMEJACDOT,
    FRAMEACC
  };

} // namespace

int main(int argc, char ** argv)
{
  if (argc < 4)
  {
    usage(argv[0]);
    return 2;
  }
  const std::string path = argv[1];
  const bool floating = std::atoi(argv[2]) != 0;

  pinocchio::Model model;
  try
  {
    load_model(path, floating, model);
  }
  catch (const std::exception & e)
  {
    std::fprintf(stderr, "failed to load URDF '%s': %s\n", path.c_str(), e.what());
    return 3;
  }

  if (std::strcmp(argv[3], "--eval-rnea") == 0)
    return eval_rnea(model);

  if (argc < 5)
  {
    usage(argv[0]);
    return 2;
  }
  const long n = std::atol(argv[3]);
  const int reps = std::atoi(argv[4]);
  const std::string algo_name = argc > 5 ? argv[5] : "rnea";
  const unsigned seed = argc > 6 ? static_cast<unsigned>(std::atol(argv[6])) : 42u;
  const bool store = argc > 7 && std::strcmp(argv[7], "store") == 0;
  if (n <= 0 || reps <= 0)
  {
    std::fprintf(stderr, "N and REPS must be positive\n");
    return 2;
  }
  Algo algo;
  if (algo_name == "rnea")
    algo = Algo::RNEA;
  else if (algo_name == "crba")
    algo = Algo::CRBA;
  else if (algo_name == "aba")
    algo = Algo::ABA;
  else if (algo_name == "fk")
    algo = Algo::FK;
  else if (algo_name == "fkva")
    algo = Algo::FKVA;
  else if (algo_name == "rnea_deriv")
    algo = Algo::RNEA_DERIV;
  else if (algo_name == "aba_deriv")
    algo = Algo::ABA_DERIV;
  else if (algo_name == "framejac")
    algo = Algo::FRAMEJAC;
  else if (algo_name == "framejacdot")
    algo = Algo::FRAMEJACDOT;
  else if (algo_name == "frameacc")
    algo = Algo::FRAMEACC;
  else
  {
    std::fprintf(stderr, "unknown algorithm '%s' (rnea|crba|aba|fk|fkva|rnea_deriv|aba_deriv|"
                 "framejac|framejacdot|frameacc)\n", algo_name.c_str());
    return 2;
  }

  std::srand(seed);
  Eigen::VectorXd lo = model.lowerPositionLimit, hi = model.upperPositionLimit;
  for (Eigen::Index i = 0; i < lo.size(); ++i)
  {
    if (!std::isfinite(lo[i]) || lo[i] < -1e10)
      lo[i] = -1.0;
    if (!std::isfinite(hi[i]) || hi[i] > 1e10)
      hi[i] = 1.0;
    if (hi[i] < lo[i])
      std::swap(lo[i], hi[i]);
  }

  const Eigen::Index N = static_cast<Eigen::Index>(n);
  Eigen::MatrixXd Q(model.nq, N), V(model.nv, N), A(model.nv, N), T(model.nv, N);
  for (Eigen::Index k = 0; k < N; ++k)
  {
    Q.col(k) = pinocchio::randomConfiguration(model, lo, hi);
  }
  V.setRandom();
  A.setRandom();
  T.setRandom();

  pinocchio::Data data(model);
  std::vector<pinocchio::FrameIndex> bodies;
  for (pinocchio::FrameIndex f = 0; f < static_cast<pinocchio::FrameIndex>(model.nframes); ++f)
    if (model.frames[f].type == pinocchio::BODY)
      bodies.push_back(f);
  const std::size_t nn = static_cast<std::size_t>(model.nv * model.nv);
  const std::size_t per_out = algo == Algo::RNEA_DERIV || algo == Algo::ABA_DERIV ? 3 * nn
                              : algo == Algo::CRBA ? static_cast<std::size_t>(model.nv * model.nv)
                              : algo == Algo::FK ? 12 * bodies.size()
                              : algo == Algo::FRAMEJAC || algo == Algo::FRAMEJACDOT
                                ? static_cast<std::size_t>(6 * model.nv)
                              : algo == Algo::FRAMEACC ? 6
                                                       : static_cast<std::size_t>(model.nv);
  const pinocchio::FrameIndex last = bodies.back();
  pinocchio::Data::Matrix6x J6(6, model.nv);
  J6.setZero();
  std::vector<double> per_sample_ns;
  per_sample_ns.reserve(static_cast<std::size_t>(reps));
  // store mode: one output array, touched before timing, so Pinocchio pays the copies but
  // not the page faults (urdf2dyn's timings include allocating its result arrays)
  std::unique_ptr<double[]> out(store ? new double[per_out * static_cast<std::size_t>(N)]
                                      : nullptr);
  if (store)
    std::memset(out.get(), 0, per_out * static_cast<std::size_t>(N) * sizeof(double));
  double checksum = 0.0;

  // One untimed warm-up pass (page-faults, caches), then REPS timed passes; wall-clock time,
  // and the process's CPU time (best_cpu_ns: what a shared, oversubscribed machine does not
  // inflate by the time the process waits for a core).
  double best_cpu = std::numeric_limits<double>::infinity();
  for (int r = -1; r < reps; ++r)
  {
    double acc = 0.0;
    const auto t0 = std::chrono::steady_clock::now();
    const std::clock_t c0 = std::clock();
    switch (algo)
    {
    case Algo::RNEA:
      for (Eigen::Index k = 0; k < N; ++k)
      {
        pinocchio::rnea(model, data, Q.col(k), V.col(k), A.col(k));
        acc += data.tau[0];
        if (store)
          std::memcpy(out.get() + k * per_out, data.tau.data(), per_out * sizeof(double));
      }
      break;
    case Algo::CRBA:
      for (Eigen::Index k = 0; k < N; ++k)
      {
        pinocchio::crba(model, data, Q.col(k));
        acc += data.M(0, 0);
        if (store)
          std::memcpy(out.get() + k * per_out, data.M.data(), per_out * sizeof(double));
      }
      break;
    case Algo::ABA:
      for (Eigen::Index k = 0; k < N; ++k)
      {
        pinocchio::aba(model, data, Q.col(k), V.col(k), T.col(k));
        acc += data.ddq[0];
        if (store)
          std::memcpy(out.get() + k * per_out, data.ddq.data(), per_out * sizeof(double));
      }
      break;
    case Algo::FK:
      for (Eigen::Index k = 0; k < N; ++k)
      {
        pinocchio::forwardKinematics(model, data, Q.col(k));
        for (const pinocchio::FrameIndex f : bodies)
          pinocchio::updateFramePlacement(model, data, f);
        acc += data.oMf[bodies.back()].translation()[0];
        if (store)
          for (std::size_t b = 0; b < bodies.size(); ++b)
          {
            double * o = out.get() + k * per_out + 12 * b;
            const pinocchio::SE3 & M = data.oMf[bodies[b]];
            std::memcpy(o, M.translation().data(), 3 * sizeof(double));
            std::memcpy(o + 3, M.rotation().data(), 9 * sizeof(double));
          }
      }
      break;
    case Algo::FKVA:
      for (Eigen::Index k = 0; k < N; ++k)
      {
        pinocchio::forwardKinematics(model, data, Q.col(k), V.col(k), A.col(k));
        acc += data.oMi.back().translation()[0] + data.a.back().linear()[0];
      }
      break;
    case Algo::RNEA_DERIV:    // dtau_dq, dtau_dv and M (upper triangle) in data
      for (Eigen::Index k = 0; k < N; ++k)
      {
        pinocchio::computeRNEADerivatives(model, data, Q.col(k), V.col(k), A.col(k));
        acc += data.dtau_dq(0, 0) + data.dtau_dv(0, 0);
        if (store)
        {
          std::memcpy(out.get() + k * per_out, data.dtau_dq.data(), nn * sizeof(double));
          std::memcpy(out.get() + k * per_out + nn, data.dtau_dv.data(), nn * sizeof(double));
          std::memcpy(out.get() + k * per_out + 2 * nn, data.M.data(), nn * sizeof(double));
        }
      }
      break;
    case Algo::ABA_DERIV:     // ddq_dq, ddq_dv and Minv (upper triangle) in data
      for (Eigen::Index k = 0; k < N; ++k)
      {
        pinocchio::computeABADerivatives(model, data, Q.col(k), V.col(k), T.col(k));
        acc += data.ddq_dq(0, 0) + data.ddq_dv(0, 0);
        if (store)
        {
          std::memcpy(out.get() + k * per_out, data.ddq_dq.data(), nn * sizeof(double));
          std::memcpy(out.get() + k * per_out + nn, data.ddq_dv.data(), nn * sizeof(double));
          std::memcpy(out.get() + k * per_out + 2 * nn, data.Minv.data(), nn * sizeof(double));
        }
      }
      break;
    case Algo::FRAMEJAC:
      for (Eigen::Index k = 0; k < N; ++k)
      {
        pinocchio::computeFrameJacobian(model, data, Q.col(k), last, pinocchio::LOCAL, J6);
        acc += J6(0, 0);
        if (store)
          std::memcpy(out.get() + k * per_out, J6.data(), per_out * sizeof(double));
      }
      break;
    case Algo::FRAMEJACDOT:
      for (Eigen::Index k = 0; k < N; ++k)
      {
        pinocchio::computeJointJacobiansTimeVariation(model, data, Q.col(k), V.col(k));
        pinocchio::updateFramePlacement(model, data, last);
        J6.setZero();
        pinocchio::getFrameJacobianTimeVariation(model, data, last,
                                                 pinocchio::LOCAL_WORLD_ALIGNED, J6);
        acc += J6(0, 0);
        if (store)
          std::memcpy(out.get() + k * per_out, J6.data(), per_out * sizeof(double));
      }
      break;
    case Algo::FRAMEACC:
      for (Eigen::Index k = 0; k < N; ++k)
      {
        pinocchio::forwardKinematics(model, data, Q.col(k), V.col(k), A.col(k));
        pinocchio::updateFramePlacement(model, data, last);
        const pinocchio::Motion a = pinocchio::getFrameClassicalAcceleration(
          model, data, last, pinocchio::LOCAL_WORLD_ALIGNED);
        acc += a.linear()[0];
        if (store)
          std::memcpy(out.get() + k * per_out, a.toVector().data(), 6 * sizeof(double));
      }
      break;
    }
    const auto t1 = std::chrono::steady_clock::now();
    const std::clock_t c1 = std::clock();
    if (r >= 0)
    {
      const double ns = std::chrono::duration<double, std::nano>(t1 - t0).count();
      per_sample_ns.push_back(ns / static_cast<double>(N));
      best_cpu = std::min(best_cpu, 1e9 * static_cast<double>(c1 - c0) / CLOCKS_PER_SEC
                                        / static_cast<double>(N));
      checksum = acc;
    }
  }

  std::vector<double> sorted = per_sample_ns;
  std::sort(sorted.begin(), sorted.end());
  const double best = sorted.front();
  const double median = sorted[sorted.size() / 2];
  std::printf(
    "{\"algo\": \"%s\", \"mode\": \"%s\", \"nq\": %d, \"nv\": %d, \"n\": %ld, \"reps\": %d, "
    "\"best_ns\": %.3f, \"median_ns\": %.3f, \"best_cpu_ns\": %.3f, \"checksum\": %.17g}\n",
    algo_name.c_str(), store ? "store" : "hot", model.nq, model.nv, n, reps, best, median,
    best_cpu, checksum);
  return 0;
}
