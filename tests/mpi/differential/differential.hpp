// The randomized differential driver (differential.cpp): its random stream,
// the datatypes it draws (with the byte layout of one element: which bytes
// are data and of what kind, the rest are holes that must stay untouched),
// the reduction operators, and the deterministic buffer contents.
//
// Everything a call does is a function of (seed, call index): all ranks draw
// the same numbers from one stream, and a rank's buffer contents are hashed
// from (seed, call, rank in the communicator, byte), so rerunning with the
// same seed and number of processes repeats every call exactly. Draws added
// after a seed was recorded as a regression come from mix(seed, call), not
// from the stream, so that old seeds still draw the same calls.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace optcoll::differential {

// splitmix64: the stream every rank draws identically.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : s_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (s_ += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n), n >= 1.
  std::int64_t below(std::int64_t n) { return static_cast<std::int64_t>(next() % static_cast<std::uint64_t>(n)); }
  bool chance(int percent) { return below(100) < percent; }

 private:
  std::uint64_t s_;
};

inline std::uint64_t mix(std::uint64_t a, std::uint64_t b) {
  Rng r(a * 0x9e3779b97f4a7c15u ^ b);
  return r.next();
}

enum class Field : std::uint8_t { i32, i64, f64, f32, u8 };

struct FieldAt {
  std::int64_t offset;
  Field kind;
};

// A datatype under test. Elements are `extent` bytes apart; `fields` are
// the bytes MPI moves, everything else is a hole.
struct TypeDesc {
  std::string name;
  MPI_Datatype type = MPI_DATATYPE_NULL;
  std::int64_t extent = 0;
  std::vector<FieldAt> fields;
  bool predefined = false;  // a predefined type: the predefined ops below apply
  bool pair = false;        // MPI_2INT: MAXLOC/MINLOC only
  bool real = false;        // has floating-point fields, which may hold real data
};

// An operator under test, with the types it may be applied to.
struct OpDesc {
  std::string name;
  MPI_Op op = MPI_OP_NULL;
  bool commutative = true;
  // Which types: predefined integer (i32/i64/u8), predefined double,
  // MPI_2INT, any (user operators interpret the layout themselves).
  bool on_int = false, on_double = false, on_pair = false, on_derived = false;
  bool matrix_only = false;  // the non-commutative matrix product
};

// Creates the datatypes and operators (collective over nothing; needs MPI).
struct Catalog {
  std::vector<TypeDesc> types;
  std::vector<OpDesc> ops;
  int matrix_type = -1;  // index of the 2x2 matrix type
  // The types the call stream draws from are the first `drawn`; the others
  // (MPI_FLOAT) replace a drawn one by a derived draw (differential.cpp).
  std::size_t drawn = 0;
  int float_type = -1;  // index of MPI_FLOAT
  static const Catalog& get();
  const TypeDesc* find(MPI_Datatype t) const;
  // Frees the derived datatypes and user operators (before MPI_Finalize).
  static void release();
};

bool op_applies(const OpDesc& op, const TypeDesc& t);

// Buffer contents: data fields get small values (products and sums of up to
// 16 ranks stay exact in every kind), holes get hashed garbage. salt
// separates the buffers of one call (send, receive, ...). With `real`, the
// floating-point fields get real values instead: nonzero, either side of
// zero, a quarter of them large (1e5 to 1e7, so that sums cancel at large
// magnitude and their bits depend on the order of the additions).
void fill(std::vector<unsigned char>& buf, const TypeDesc& t, std::int64_t count, std::uint64_t seed,
          std::uint64_t salt, bool real = false);

}  // namespace optcoll::differential
