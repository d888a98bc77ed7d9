/* "Copy" beside an embed's <iframe> code or an overlay's address: the text of the field
   just before it goes to the clipboard (selected as a fallback where the Clipboard API is
   not allowed, e.g. plain HTTP), and "Copied" shows for a moment. */
(function () {
  "use strict";
  if (window.luzaEmbedCopy) return;
  window.luzaEmbedCopy = true;
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy]");
    if (!button) return;
    var box = button.closest(".embed-snippet, .copy-field");
    var field = box && box.querySelector("textarea, input");
    if (!field) return;
    var done = box.querySelector(".copied");
    function shown() {
      if (!done) return;
      done.hidden = false;
      setTimeout(function () { done.hidden = true; }, 2500);
    }
    field.select();
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(shown, function () {
        document.execCommand("copy");
        shown();
      });
    } else {
      document.execCommand("copy");
      shown();
    }
  });
})();
