/* A stand-in plugin host for version-check.test: loads the libraries named
 * after the plugin (as a host's own MLIR would be loaded), then the plugin,
 * and asks it for its pass and dialect plugin info as mlir-opt does. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>

struct Info {
  uint32_t apiVersion;
  const char *name;
  const char *version;
  void (*callback)(void);
};

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: host PLUGIN [LIBRARY...]\n");
    return 2;
  }
  for (int i = 2; i < argc; ++i)
    if (!dlopen(argv[i], RTLD_NOW | RTLD_GLOBAL)) {
      fprintf(stderr, "host: %s\n", dlerror());
      return 2;
    }
  void *plugin = dlopen(argv[1], RTLD_LAZY | RTLD_GLOBAL);
  if (!plugin) {
    fprintf(stderr, "host: %s\n", dlerror());
    return 2;
  }
  const char *names[2] = {"mlirGetPassPluginInfo", "mlirGetDialectPluginInfo"};
  const char *kinds[2] = {"pass", "dialect"};
  for (int i = 0; i < 2; ++i) {
    struct Info (*get)(void) = (struct Info(*)(void))dlsym(plugin, names[i]);
    if (!get) {
      fprintf(stderr, "host: no %s\n", names[i]);
      return 2;
    }
    struct Info info = get();
    fflush(stderr);
    printf("%s plugin: api version %u%s\n", kinds[i], info.apiVersion,
           info.callback ? ", callback" : "");
    fflush(stdout);
  }
  return 0;
}
