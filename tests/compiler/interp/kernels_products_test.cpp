#include "compiler/interp/kernels_products.h"

#include <gtest/gtest.h>

#include <cmath>

#include "compiler/ir/op.h"

namespace polyarch::interp {
namespace {

passes::EinsumEquation equation_of(const std::string& text,
                                   const std::vector<std::vector<int64_t>>& shapes) {
  ir::Op op;
  op.name = "einsum";
  return passes::parse_einsum(op, text, shapes);
}

// [[1, 2], [3, 4]] x [[5, 6], [7, 8]] = [[19, 22], [43, 50]], by hand.
TEST(EinsumKernel, ContractionIsTheMatrixProduct) {
  const DenseTensor a{{2, 2}, {1, 2, 3, 4}};
  const DenseTensor b{{2, 2}, {5, 6, 7, 8}};
  EXPECT_EQ(einsum({&a, &b}, equation_of("ij,jk->ik", {{2, 2}, {2, 2}})).values,
            (std::vector<float>{19, 22, 43, 50}));
}

// The diagonal of [[1, 2], [3, 4]] is [1, 4]; its trace ("ii") 5.
TEST(EinsumKernel, RepeatedLabelsReadTheDiagonal) {
  const DenseTensor a{{2, 2}, {1, 2, 3, 4}};
  EXPECT_EQ(einsum({&a}, equation_of("ii->i", {{2, 2}})).values, (std::vector<float>{1, 4}));
  EXPECT_EQ(einsum({&a}, equation_of("ii", {{2, 2}})).values, (std::vector<float>{5}));
}

// The DFT of a unit impulse is 1 at every bin; of a constant 1 over 4 samples, 4 at bin 0.
TEST(DftKernel, ImpulseAndConstantHaveTheirKnownSpectra) {
  const DenseTensor impulse{{1, 4, 1}, {1, 0, 0, 0}};
  EXPECT_EQ(dft(impulse, 1, 4, 4, false).values, (std::vector<float>{1, 0, 1, 0, 1, 0, 1, 0}));
  const DenseTensor constant{{1, 4, 1}, {1, 1, 1, 1}};
  const DenseTensor spectrum = dft(constant, 1, 4, 4, false);
  EXPECT_FLOAT_EQ(spectrum.values[0], 4.0f);
  for (std::size_t i = 1; i < spectrum.values.size(); ++i) {
    EXPECT_NEAR(spectrum.values[i], 0.0f, 1e-6f) << i;
  }
}

// The inverse of the impulse's spectrum (all ones) is the impulse again, divided by n back.
TEST(DftKernel, InverseUndoesTheTransform) {
  const DenseTensor ones{{1, 4, 2}, {1, 0, 1, 0, 1, 0, 1, 0}};
  const DenseTensor signal = dft(ones, 1, 4, 4, true);
  const std::vector<float> impulse = {1, 0, 0, 0, 0, 0, 0, 0};
  for (std::size_t i = 0; i < impulse.size(); ++i) EXPECT_NEAR(signal.values[i], impulse[i], 1e-6f);
}

// Periodic Hann of 4: 0.5 - 0.5 cos(pi n / 2) = 0, 0.5, 1, 0.5; symmetric of 3: 0, 1, 0.
TEST(WindowKernel, HannWindowIsTheRaisedCosine) {
  const DenseTensor periodic = cosine_window("hann", 4, true);
  const std::vector<float> expected = {0, 0.5f, 1, 0.5f};
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_NEAR(periodic.values[i], expected[i], 1e-7f) << i;
  }
  const DenseTensor symmetric = cosine_window("hann", 3, false);
  EXPECT_NEAR(symmetric.values[1], 1.0f, 1e-7f);
  EXPECT_NEAR(symmetric.values[2], 0.0f, 1e-7f);
}

// Frames of 2 every 2 over [1, 2, 3, 4]: the DFTs of [1, 2] and [3, 4], onesided (2 bins):
// (3, 0), (-1, 0) and (7, 0), (-1, 0).
TEST(StftKernel, EachFrameIsTransformed) {
  const DenseTensor signal{{1, 4, 1}, {1, 2, 3, 4}};
  const DenseTensor result = stft(signal, 2, nullptr, 2, 2);
  const std::vector<float> expected = {3, 0, -1, 0, 7, 0, -1, 0};
  ASSERT_EQ(result.shape, (Shape{1, 2, 2, 2}));
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_NEAR(result.values[i], expected[i], 1e-6f) << i;
  }
}

}  // namespace
}  // namespace polyarch::interp
