/* Loaded with LD_PRELOAD, makes the disk under the directory $FULL_DISK_UNDER full: each
   write to a file there fails with ENOSPC, as on a real full disk, and
   everything else is written as usual. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int isUnderFullDisk(int FD) {
  const char *Under = getenv("FULL_DISK_UNDER");
  char Link[64], Target[PATH_MAX];
  if (!Under || !*Under)
    return 0;
  snprintf(Link, sizeof Link, "/proc/self/fd/%d", FD);
  ssize_t Read = readlink(Link, Target, sizeof Target - 1);
  if (Read < 0)
    return 0;
  Target[Read] = '\0';
  size_t Length = strlen(Under);
  return strncmp(Target, Under, Length) == 0 &&
         (Target[Length] == '/' || Target[Length] == '\0');
}

ssize_t write(int FD, const void *Bytes, size_t Count) {
  static ssize_t (*RealWrite)(int, const void *, size_t);
  if (!RealWrite)
    RealWrite = (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT,
                                                              "write");
  if (Count > 0 && isUnderFullDisk(FD)) {
    errno = ENOSPC;
    return -1;
  }
  return RealWrite(FD, Bytes, Count);
}
