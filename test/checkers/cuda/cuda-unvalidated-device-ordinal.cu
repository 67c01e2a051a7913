// RUN: %check_gpuguard %s cuda-unvalidated-device-ordinal %t -- -- %cuda_mock_flags

#include <cuda_runtime.h>

extern "C" char *getenv(const char *Name);
extern "C" int atoi(const char *Text);
struct MPI_Comm_s;
typedef MPI_Comm_s *MPI_Comm;
extern MPI_Comm MPI_COMM_WORLD;
extern MPI_Comm MPI_COMM_NODE;
int MPI_Comm_rank(MPI_Comm Comm, int *Rank);

// torchrun's LOCAL_RANK, used as it comes.
void localRank() {
  int Device = atoi(getenv("LOCAL_RANK"));
  cudaSetDevice(Device);
  // CHECK-NOTES: :[[@LINE-1]]:17: warning: device ordinal 'Device' comes from the environment variable 'LOCAL_RANK' and is never compared with the device count: past the last GPU, 'cudaSetDevice' fails with cudaErrorInvalidDevice [cuda-unvalidated-device-ordinal]
  // CHECK-NOTES: :[[@LINE-3]]:21: note: read here
}

// The global rank as a device: GPU 8 on the second node of 8-GPU nodes.
void globalRank() {
  const char *Rank = getenv("RANK");
  cudaSetDevice(atoi(Rank));
  // CHECK-NOTES: :[[@LINE-1]]:17: warning: device ordinal 'atoi(Rank)' is the global rank from the environment variable 'RANK': on every node after the first it names a GPU that does not exist; use the local rank ('LOCAL_RANK', or the rank modulo the GPUs per node) [cuda-unvalidated-device-ordinal]
  // CHECK-NOTES: :[[@LINE-3]]:22: note: read here
}

void mpiWorldRank() {
  int Rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  cudaDeviceProp Props;
  cudaGetDeviceProperties(&Props, Rank);
  // CHECK-NOTES: :[[@LINE-1]]:35: warning: device ordinal 'Rank' is the global rank from MPI's world rank: on every node after the first it names a GPU that does not exist; use the local rank ('LOCAL_RANK', or the rank modulo the GPUs per node) [cuda-unvalidated-device-ordinal]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: read here
}

int main(int argc, char **argv) {
  int Device = argc > 1 ? atoi(argv[1]) : 0;
  cudaSetDevice(Device);
  // CHECK-NOTES: :[[@LINE-1]]:17: warning: device ordinal 'Device' comes from the command line and is never compared with the device count: past the last GPU, 'cudaSetDevice' fails with cudaErrorInvalidDevice [cuda-unvalidated-device-ordinal]
  // CHECK-NOTES: :[[@LINE-3]]:32: note: read here
  return 0;
}

// The global rank fails on the second node however its status is checked.
void globalRankChecked() {
  int Device = atoi(getenv("OMPI_COMM_WORLD_RANK"));
  if (cudaSetDevice(Device) != cudaSuccess)
    return;
  // CHECK-NOTES: :[[@LINE-2]]:21: warning: device ordinal 'Device' is the global rank from the environment variable 'OMPI_COMM_WORLD_RANK': on every node after the first it names a GPU that does not exist; use the local rank ('LOCAL_RANK', or the rank modulo the GPUs per node) [cuda-unvalidated-device-ordinal]
  // CHECK-NOTES: :[[@LINE-4]]:21: note: read here
}

// A handler that only hands the status back (a check compiled in for debug
// builds alone) reads nothing when its own result is dropped.
cudaError_t passBack(cudaError_t Status) { return Status; }
void statusPassedBack() {
  int Device = atoi(getenv("DEVICE"));
  passBack(cudaSetDevice(Device));
  // CHECK-NOTES: :[[@LINE-1]]:26: warning: device ordinal 'Device' comes from the environment variable 'DEVICE' and is never compared with the device count: past the last GPU, 'cudaSetDevice' fails with cudaErrorInvalidDevice [cuda-unvalidated-device-ordinal]
  // CHECK-NOTES: :[[@LINE-3]]:21: note: read here
  if (passBack(cudaSetDevice(Device)) != cudaSuccess)
    return;
}

// ---- Negatives ----

// A local ordinal whose call's status is read: past the last GPU, the
// failure is reported where the ordinal is used.
void checkStatus(cudaError_t Status);
void statusChecked() {
  int Device = 0;
  if (getenv("DEVICE"))
    Device = atoi(getenv("DEVICE"));
  checkStatus(cudaSetDevice(Device));
  if (cudaSetDevice(Device) != cudaSuccess)
    return;
  cudaDeviceProp Props;
  cudaError_t Status = cudaGetDeviceProperties(&Props, Device);
  checkStatus(Status);
}

void comparedWithCount() {
  int Count = 0;
  cudaGetDeviceCount(&Count);
  int Device = atoi(getenv("LOCAL_RANK"));
  if (Device < 0 || Device >= Count)
    return;
  cudaSetDevice(Device);
}

void reducedModuloCount() {
  int Count = 0;
  cudaGetDeviceCount(&Count);
  cudaSetDevice(atoi(getenv("RANK")) % Count);
}

// The global rank mapped to a node-local one: the usual multi-node idiom.
void mappedPerNode(int GpusPerNode) {
  int Rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  int Count = 0;
  cudaGetDeviceCount(&Count);
  int Local = Rank % GpusPerNode;
  if (Local >= Count)
    return;
  cudaSetDevice(Local);
}

// A node-local communicator's rank is local.
void nodeRank() {
  int Rank = 0;
  MPI_Comm_rank(MPI_COMM_NODE, &Rank);
  int Count = 0;
  cudaGetDeviceCount(&Count);
  if (Rank < Count)
    cudaSetDevice(Rank);
}

// A helper that chooses the device from the command line, as the CUDA
// samples' findCudaDevice does, checks it itself.
int findDevice(int argc, const char **argv);
void helperChooses(int argc, char **argv) {
  int Device = findDevice(argc, (const char **)argv);
  cudaDeviceProp Props;
  cudaGetDeviceProperties(&Props, Device);
}

// Ordinals of unknown origin, or constants, are the caller's business.
void parameter(int Device) { cudaSetDevice(Device); }
void loop() {
  int Count = 0;
  cudaGetDeviceCount(&Count);
  for (int I = 0; I < Count; ++I)
    cudaSetDevice(I);
  cudaSetDevice(0);
}
