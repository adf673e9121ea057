// The exploration worker's first script. The worker runs the page's own WebAssembly module,
// not a second copy of the engine: the page posts that module, already compiled, with the
// address of its JavaScript glue, and the worker instantiates it. The module's start function
// sees that it runs in a worker and listens for the exploration request (app/src/worker.rs).
//
// A failure to load is thrown from a task of its own, so that the page's `error` handler on
// the Worker hears it (a rejected promise alone would leave the page waiting).
self.onmessage = async (event) => {
  self.onmessage = null;
  try {
    const { glue, module } = event.data;
    const bindings = await import(glue);
    await bindings.default({ module_or_path: module });
  } catch (error) {
    setTimeout(() => {
      throw error;
    });
  }
};
