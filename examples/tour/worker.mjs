self.onmessage = (event) => {
  postMessage({ name: self.name, result: event.data * event.data });
};
// Every BroadcastChannel named 'tour', in any runtime, hears what one posts.
const news = new BroadcastChannel('tour');
news.onmessage = (event) => news.postMessage(`${self.name} heard "${event.data}"`);
