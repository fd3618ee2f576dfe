// Spec test for contract J4: reportError() of a value with no stack of its
// own (not an Error) reports the location of the program's code that
// called it, not a line of hostloop's internal scripts
// (hostloop:internal/errors.js used to show up as the filename).
// Expected: j4_errors_report_error_location.stdout.

addEventListener('error', (event) => {
  const file = event.filename.slice(event.filename.lastIndexOf('/') + 1);
  console.log(`${event.message} at ${file}:${event.lineno}:${event.colno}`);
  event.preventDefault();
});
reportError('not an Error');
function nested() {
  reportError(42);
}
nested();
