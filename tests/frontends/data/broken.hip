// gpusim-launch: grid=1,1,1 block=64,1,1
__global__ void broken(float *a) {
  a[threadIdx.x] = undeclared_name;
}
