
// The checkout's Total follows the add-ons ticked (billing README, `checkout/`). Amounts are integer
// cents from the page (`data-base-cents`, each add-on's `data-cents`), added as integers and shown
// as the server shows them (`1,234.50`); without this script each add-on states its own price.
(function () {
  var total = document.getElementById('total-amount');
  if (!total) return;
  var boxes = document.querySelectorAll('input[name="bumps"][data-cents]');
  function money(cents) {
    var units = String((cents - (cents % 100)) / 100).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
    return units + '.' + String(cents % 100).padStart(2, '0');
  }
  function update() {
    var cents = Number(total.getAttribute('data-base-cents'));
    for (var i = 0; i < boxes.length; i++) if (boxes[i].checked) cents += Number(boxes[i].getAttribute('data-cents'));
    total.textContent = money(cents);
  }
  for (var i = 0; i < boxes.length; i++) boxes[i].addEventListener('change', update);
  // A page restored from the back/forward cache keeps the boxes as the buyer left them.
  window.addEventListener('pageshow', update);
  update();
})();
