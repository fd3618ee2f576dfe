export function greeting(name) {
  return `hello from ${name}`;
}
