// overload.cuh: a kernel template in a header that launches itself from
// device code (the header's text is what clang is given to resolve it).
#pragma once
template <int D> __global__ void countdown(int *v, int from) {
  v[D] = from * 10 + D;
  if (D > 0) countdown<(D > 0 ? D - 1 : 0)><<<1, 1>>>(v, from);
}
