extern "C" __global__ void f(int *x) { x[0] = 1; }
