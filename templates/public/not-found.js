// The not-found page (templates/pages/NotFound.tsx): it says that the home page opens in a few
// seconds, opens it then, and offers to stay instead (WCAG 2.2.1: a time limit the visitor can
// turn off). Not bundled: served as it is, like the favicon; the page works without it.
const box = document.querySelector('[data-go-home]');
if (box) {
  const home = box.getAttribute('data-go-home') || '/';
  const status = box.querySelector('[role="status"]');
  const stay = box.querySelector('[data-stay]');
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'button';
  button.append(...stay.childNodes);
  stay.append(button);
  box.classList.add('shown');
  const timer = setTimeout(() => location.replace(home), 10000);
  button.addEventListener('click', () => {
    clearTimeout(timer);
    status.firstElementChild.hidden = true;
    status.lastElementChild.hidden = false;
    stay.hidden = true;
  });
}
