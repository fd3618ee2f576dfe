// console.log of an object that inherits from URL.prototype or
// URLSearchParams.prototype but is not one prints it as hostloop's own
// interfaces print such objects (`Event {}`), instead of an error about its
// getters (whose brand check throws), which replaced the whole argument when
// nested. Expected: url_inspect_non_instance.stdout.
console.log(Object.create(URL.prototype));
console.log(Object.create(URLSearchParams.prototype));
console.log({ nested: Object.create(URL.prototype), other: 1 });
console.log(new URL('http://a/b?c=1').searchParams);
