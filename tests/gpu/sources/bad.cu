/* A compile error on line 4, for cases/src-syntax-error.yaml. */
extern "C" __global__ void f(int *x)
{
	x[0] = y;
}
