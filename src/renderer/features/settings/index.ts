// The settings feature's door for the other features: the price-unit toggle the status bar carries.
export { PriceUnitToggle } from './PriceUnitToggle'
