// Type signatures for the argument check (agreement.hpp): the sequence of
// basic datatypes of count elements, as (length, polynomial hash).
//
// A sequence v_0 v_1 ... v_{n-1} of basic types hashes to
// H = sum_k v_k x^k mod M (M = 2^61 - 1, x fixed), so concatenation and
// repetition have closed forms: H(ab) = H(a) + x^|a| H(b) and H(a^n) =
// H(a) (1 + y + ... + y^(n-1)) with y = x^|a|. The walk over the datatype's
// construction (MPI_Type_get_envelope / get_contents) therefore costs
// O(log n) per constructor, whatever the counts, and two datatypes built
// differently hash alike exactly when their signatures are equal (up to
// hash collisions). A basic type is identified by its MPI name, the same in
// every process; the pair types of MAXLOC / MINLOC are their two parts.
#include <array>
#include <cstring>
#include <string_view>
#include <vector>

#include "mpi/checks/agreement.hpp"
#include "mpi/collectives/collectives.hpp"

namespace optcoll::mpi {
namespace {

constexpr std::uint64_t kM = (std::uint64_t{1} << 61) - 1;
constexpr std::uint64_t kX = 0x1d3f84a5b2c6e97ull % kM;

__extension__ using u128 = unsigned __int128;

std::uint64_t mulmod(std::uint64_t a, std::uint64_t b) {
  const u128 p = static_cast<u128>(a) * b;
  std::uint64_t r = static_cast<std::uint64_t>(p & kM) + static_cast<std::uint64_t>(p >> 61);
  r = (r & kM) + (r >> 61);
  return r >= kM ? r - kM : r;
}
std::uint64_t addmod(std::uint64_t a, std::uint64_t b) {
  const std::uint64_t r = a + b;
  return r >= kM ? r - kM : r;
}
std::uint64_t powmod(std::uint64_t y, std::uint64_t n) {
  std::uint64_t r = 1;
  for (; n > 0; n >>= 1, y = mulmod(y, y))
    if ((n & 1) != 0) r = mulmod(r, y);
  return r;
}
// 1 + y + ... + y^(n-1) mod M, by halving n.
std::uint64_t geometric(std::uint64_t y, std::uint64_t n) {
  if (n == 0) return 0;
  if (n % 2 == 1) return addmod(1, mulmod(y, geometric(y, n - 1)));
  return mulmod(geometric(y, n / 2), addmod(1, powmod(y, n / 2)));
}

Signature concat(const Signature& a, const Signature& b) {
  return {a.length + b.length, addmod(a.hash, mulmod(powmod(kX, a.length), b.hash))};
}
Signature repeat(const Signature& a, std::uint64_t n) {
  return {a.length * n, mulmod(a.hash, geometric(powmod(kX, a.length), n))};
}

// A basic type: one element with a value from its name.
Signature atom(std::string_view name) {
  std::uint64_t h = 14695981039346656037u;  // FNV-1a
  for (const char c : name) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211u;
  return {1, h % kM};
}

void query(int rc) {
  if (rc != MPI_SUCCESS) throw MpiError(MPI_ERR_TYPE, "optcoll: invalid datatype");
}

Signature named(MPI_Datatype t) {
  struct Pair {
    MPI_Datatype type, first, second;
  };
  const std::array<Pair, 9> pairs{{{MPI_FLOAT_INT, MPI_FLOAT, MPI_INT},
                                   {MPI_DOUBLE_INT, MPI_DOUBLE, MPI_INT},
                                   {MPI_LONG_INT, MPI_LONG, MPI_INT},
                                   {MPI_2INT, MPI_INT, MPI_INT},
                                   {MPI_SHORT_INT, MPI_SHORT, MPI_INT},
                                   {MPI_LONG_DOUBLE_INT, MPI_LONG_DOUBLE, MPI_INT},
                                   {MPI_2REAL, MPI_REAL, MPI_REAL},
                                   {MPI_2DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION},
                                   {MPI_2INTEGER, MPI_INTEGER, MPI_INTEGER}}};
  for (const Pair& p : pairs)
    if (p.type == t) return concat(named(p.first), named(p.second));
  char name[MPI_MAX_OBJECT_NAME] = {};
  int len = 0;
  query(PMPI_Type_get_name(t, name, &len));
  return atom(std::string_view(name, static_cast<std::size_t>(len)));
}

// The datatypes get_contents returned: derived ones must be freed.
class Contents {
 public:
  explicit Contents(MPI_Datatype t, int ni, int na, int nd)
      : ints(static_cast<std::size_t>(ni)), addrs(static_cast<std::size_t>(na)), types(static_cast<std::size_t>(nd)) {
    query(PMPI_Type_get_contents(t, ni, na, nd, ints.data(), addrs.data(), types.data()));
  }
  ~Contents() {
    for (MPI_Datatype& d : types) {
      int a = 0, b = 0, c = 0, combiner = MPI_COMBINER_NAMED;
      if (PMPI_Type_get_envelope(d, &a, &b, &c, &combiner) == MPI_SUCCESS && combiner != MPI_COMBINER_NAMED)
        PMPI_Type_free(&d);
    }
  }
  Contents(const Contents&) = delete;
  Contents& operator=(const Contents&) = delete;
  std::vector<int> ints;
  std::vector<MPI_Aint> addrs;
  std::vector<MPI_Datatype> types;
};

std::uint64_t nonnegative(long long n) {
  return n < 0 ? 0 : static_cast<std::uint64_t>(n);
}

Signature walk(MPI_Datatype t) {
  int ni = 0, na = 0, nd = 0, combiner = MPI_COMBINER_NAMED;
  query(PMPI_Type_get_envelope(t, &ni, &na, &nd, &combiner));
  if (combiner == MPI_COMBINER_NAMED) return named(t);
  Contents c(t, ni, na, nd);
  const auto& in = c.ints;
  switch (combiner) {
    case MPI_COMBINER_DUP:
    case MPI_COMBINER_RESIZED:
      return walk(c.types[0]);
    case MPI_COMBINER_CONTIGUOUS:
      return repeat(walk(c.types[0]), nonnegative(in[0]));
    case MPI_COMBINER_VECTOR:
    case MPI_COMBINER_HVECTOR:
    case MPI_COMBINER_INDEXED_BLOCK:
    case MPI_COMBINER_HINDEXED_BLOCK:
      return repeat(walk(c.types[0]), nonnegative(static_cast<long long>(in[0]) * in[1]));
    case MPI_COMBINER_INDEXED:
    case MPI_COMBINER_HINDEXED: {
      long long n = 0;
      for (int i = 0; i < in[0]; ++i) n += in[static_cast<std::size_t>(1 + i)];
      return repeat(walk(c.types[0]), nonnegative(n));
    }
    case MPI_COMBINER_STRUCT: {
      Signature s;
      for (int i = 0; i < in[0]; ++i)
        s = concat(
            s, repeat(walk(c.types[static_cast<std::size_t>(i)]), nonnegative(in[static_cast<std::size_t>(1 + i)])));
      return s;
    }
    case MPI_COMBINER_SUBARRAY: {
      long long n = 1;
      for (int i = 0; i < in[0]; ++i) n *= in[static_cast<std::size_t>(1 + in[0] + i)];
      return repeat(walk(c.types[0]), nonnegative(n));
    }
    default:
      break;
  }
  // DARRAY and anything else built from one type: its size in elements of
  // that type; otherwise the combiner and the size.
  MPI_Count size = 0;
  query(PMPI_Type_size_x(t, &size));
  if (c.types.size() == 1) {
    MPI_Count part = 0;
    query(PMPI_Type_size_x(c.types[0], &part));
    if (part > 0) return repeat(walk(c.types[0]), nonnegative(size / part));
  }
  Signature s = atom("combiner");
  s.hash = addmod(s.hash, mulmod(static_cast<std::uint64_t>(combiner) + 1, static_cast<std::uint64_t>(size) % kM));
  return s;
}

}  // namespace

Signature signature(MPI_Datatype type, std::int64_t count) {
  if (type == MPI_DATATYPE_NULL) throw MpiError(MPI_ERR_TYPE, "optcoll: MPI_DATATYPE_NULL");
  return repeat(walk(type), nonnegative(count));
}

}  // namespace optcoll::mpi
