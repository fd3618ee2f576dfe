self.onmessage = (event) => {
  postMessage({ name: self.name, result: event.data * event.data });
};
