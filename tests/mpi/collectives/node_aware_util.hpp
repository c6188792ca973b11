// Helpers of the node-aware MPI tests (mpi_node_aware_test.cpp,
// mpi_node_aware_scan_test.cpp): the blocking, nonblocking and persistent
// forms of one call, buffers refilled in place, and the nodes imposed with
// OPTCOLL_NODE_SIZE.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <functional>

#include "mpi/comm/comm_state.hpp"
#include "mpi_test_util.hpp"
#include "optcoll/optcoll.hpp"

namespace optcoll::test {

enum class Form { blocking, nonblocking, persistent };
inline constexpr Form kForms[] = {Form::blocking, Form::nonblocking, Form::persistent};
inline const char* name(Form f) {
  return f == Form::blocking ? "blocking" : f == Form::nonblocking ? "nonblocking" : "persistent";
}

// Runs one call in form f: blocking() for the blocking form; make(true) a
// persistent request, make(false) a started nonblocking one. A persistent
// request runs twice, with reset() (which restores an in-place input)
// before each start.
inline void run(Form f, const std::function<void()>& blocking, const std::function<Request(bool)>& make,
                const std::function<void()>& reset) {
  reset();
  switch (f) {
    case Form::blocking:
      blocking();
      return;
    case Form::nonblocking:
      make(false).wait();
      return;
    case Form::persistent: {
      Request r = make(true);
      for (int i = 0; i < 2; ++i) {
        reset();
        r.start();
        r.wait();
      }
      return;
    }
  }
}

// dst's words become src's (or holes), in place: a persistent request keeps
// dst's address.
inline void refill(Buffer& dst, const Buffer* src) {
  if (src != nullptr)
    std::copy(src->words.begin(), src->words.end(), dst.words.begin());
  else
    std::fill(dst.words.begin(), dst.words.end(), kHole);
}

// The imposed node size (OPTCOLL_NODE_SIZE; 0 when not set).
inline std::int64_t imposed_node_size() {
  const char* v = std::getenv("OPTCOLL_NODE_SIZE");
  return v != nullptr ? std::atoll(v) : 0;
}

// The communicator's layout is the imposed one; false when p leaves a
// single node (nothing node-aware to test then).
inline bool nodes_as_imposed(MPI_Comm comm) {
  const std::int64_t k = imposed_node_size();
  const int p = world_size();
  const mpi::CommState& s = mpi::comm_state(comm);
  if (k <= 1 || p <= k) {
    EXPECT_FALSE(s.nodes.has_value());
    return false;
  }
  EXPECT_TRUE(s.nodes.has_value());
  if (!s.nodes) return false;
  EXPECT_EQ(s.nodes->nodes(), (p + k - 1) / k);
  EXPECT_EQ(s.nodes->size(s.nodes->nodes() - 1), p - (s.nodes->nodes() - 1) * k);
  EXPECT_EQ(s.nodes->largest(), k);
  return true;
}

}  // namespace optcoll::test
