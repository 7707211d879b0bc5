import { describe, expect, it } from 'vitest';
import type { PiiKind } from './index';
import { screenText } from './index';

const positives: Array<[PiiKind, string, string]> = [
  ['email', 'Écris-moi à jean.dupont@gmail.com demain', 'jean.dupont@gmail.com'],
  ['email', 'contact : Marie-Eve.Lefèvre+arena@orange.fr.', 'Marie-Eve.Lefèvre+arena@orange.fr'],
  ['phone', 'Appelle-moi au 06 12 34 56 78 ce soir', '06 12 34 56 78'],
  ['phone', 'mon fixe : 01.45.67.89.12', '01.45.67.89.12'],
  ['phone', 'Portable +33 7 81 23 45 67', '+33 7 81 23 45 67'],
  ['phone', 'My London number is +44 20 7946 0958', '+44 20 7946 0958'],
  // Phone-shaped is enough: a service line, a number outside the plan, a foreign one, an extension.
  ['phone', 'Service client : 0 800 130 000', '0 800 130 000'],
  ['phone', 'Ligne directe 01 99 00 12 34 poste 212', '01 99 00 12 34 poste 212'],
  ['phone', 'Call me at (415) 555-0132 ext. 44', '(415) 555-0132 ext. 44'],
  ['phone', 'Ring mig på 0046 70 123 45 67', '0046 70 123 45 67'],
  ['phone', 'Mon numéro : 0612345678', '0612345678'],
  ['email', 'écris à paul . martin @ orange . fr stp', 'paul . martin @ orange . fr'],
  ['email', 'contact : jean [at] free [dot] fr', 'jean [at] free [dot] fr'],
  ['email', 'mon adresse pro est a.roux@lamaison', 'a.roux@lamaison'],
  ['iban', 'IBAN : FR 76 3000 6000 0112 3456 7890 189', 'FR 76 3000 6000 0112 3456 7890 189'],
  ['iban', 'konto NO93 8601 1117 947', 'NO93 8601 1117 947'],
  ['iban', 'RIB DE8937 0400 4405 3201 3000', 'DE8937 0400 4405 3201 3000'],
  ['nir', 'Mon numéro de sécu : 1 85 03 75 123 456 41', '1 85 03 75 123 456 41'],
  ['nir', 'NIR 185037512345641', '185037512345641'],
  ['nir', 'numéro de sécurité sociale : 2 99 12 99 001 002', '2 99 12 99 001 002'],
  ['nir', 'NIR 185037512345642 (clé fausse)', '185037512345642'],
  ['nir', 'référence 1 85 03 75 123 456', '1 85 03 75 123 456'],
  ['nir', 'Patient : 1 85 05 78 006 084 36, suivi cardio', '1 85 05 78 006 084 36'],
  ['nir', 'N° SS 2|85|05|2A|006|084|36', '2|85|05|2A|006|084|36'],
  ['nir', 'assuréNIR185057800608436', '185057800608436'],
  ['nir', 'Insee 1.85.05.97.401.084.36', '1.85.05.97.401.084.36'],
  ['fr_siren', 'SIREN 552 081 317 (société anonyme)', '552 081 317'],
  ['fr_siren', 'SIRET 732 829 320 00074', '732 829 320 00074'],
  ['fr_passport', 'passeport 18AB12345 valable', '18AB12345'],
  ['fr_id_card', "carte d'identité n° 880692310285", '880692310285'],
  ['birth_date', 'DDN 22|8|1923, veuve', 'DDN 22|8|1923'],
  ['phone', 'Tél. 06|12|34|56|78 (fille)', '06|12|34|56|78'],
  ['phone', 'joignable au06.12.34.56.78merci', '06.12.34.56.78'],
  ['phone', 'Portable 06 12 34\n56 78 le soir', '06 12 34\n56 78'],
  ['phone', 'Skambinkite 8 612 34567', '8 612 34567'],
  ['iban', 'Mon IBAN : FR14 2004 1010 0505 0001 3M02 606, merci', 'FR14 2004 1010 0505 0001 3M02 606'],
  ['iban', 'virement sur DE89370400440532013000 svp', 'DE89370400440532013000'],
  ['card', 'Ma carte : 4111 1111 1111 1111, expire 12/27', '4111 1111 1111 1111'],
  ['card', 'amex 3782-822463-10005', '3782-822463-10005'],
  ['address', "J'habite au 12 rue des Lilas, 75011 Paris depuis 2010.", '12 rue des Lilas, 75011 Paris'],
  ['address', 'Livraison : 5 bis avenue Victor Hugo 69002 Lyon', '5 bis avenue Victor Hugo 69002 Lyon'],
  ['address', 'rendez-vous au 3 place du Général de Gaulle', '3 place du Général de Gaulle'],
  ['birth_date', 'Je suis né le 12/03/1985 à Lyon.', 'né le 12/03/1985'],
  ['birth_date', 'Date de naissance : 1er janvier 1990', 'Date de naissance : 1er janvier 1990'],
  ['birth_date', 'ma fille est née à Brest le 4 juillet 2012', 'née à Brest le 4 juillet 2012'],
  ['birth_date', 'DOB: 1985-03-12', 'DOB: 1985-03-12'],
  ['birth_date', 'He was born on March 12, 1985 in Leeds.', 'born on March 12, 1985'],
];

describe('screenText: positives', () => {
  it.each(positives)('finds %s in %j', (kind, text, expected) => {
    const screening = screenText(text);
    expect(screening.pii).toBe(true);
    expect(screening.kinds).toEqual([kind]);
    expect(screening.findings.map((found) => text.slice(found.start, found.end))).toEqual([expected]);
  });
});

const negatives: Array<[string, string]> = [
  ['reserved example domain', 'écris à prenom.nom@example.com'],
  ['image density suffix', 'remplace logo@2x.png'],
  ['package version', 'npm i -E vite@8.3.8'],
  ['social handle', 'suis @jeanDupont sur Mastodon'],
  ['emergency numbers', 'En cas d’urgence appelez le 112, le 15, le 17 ou le 18.'],
  ['helpline', 'Le 3919 écoute les femmes victimes de violences.'],
  ['too short to be a phone', 'code postal 75011, code 1234'],
  ['ten digits without trunk prefix', 'commande 1234567890'],
  ['IBAN with a wrong check digit', 'IBAN FR15 2004 1010 0505 0001 3M02 606'],
  ['IBAN too short', 'IBAN FR14 2004 1010 0505 0001 3M02'],
  ['card failing Luhn', 'carte 4111 1111 1111 1112'],
  ['ISBN-13', 'ISBN 978-2-07-036822-8'],
  ['order number', 'Commande n° 2024-118-45-6789 expédiée'],
  ['price and date', 'Le 12/03/2025, 1 299,99 € TTC'],
  ['a date without birth context', 'Le rendez-vous est le 12/03/1985 à 14 h.'],
  ['a birth year alone', 'Il est né en 1985.'],
  ['historical birth', 'Victor Hugo est né le 26 février 1802 à Besançon.'],
  ['street without a number', 'La rue de Rivoli traverse le centre de Paris.'],
  ['postcode and town alone', 'Le siège est à 75011 Paris.'],
  ['plural street word', 'Il reste 3 places de parking et 2 rues fermées.'],
  ['ambiguous street word', "J'ai 3 cours de maths demain."],
  ['public figure', 'Emmanuel Macron a été élu président de la République en 2017.'],
  ['fictional character', 'Jean Valjean vole un pain et passe dix-neuf ans au bagne.'],
];

describe('screenText: negatives', () => {
  it.each(negatives)('finds nothing in a %s', (_label, text) => {
    expect(screenText(text)).toEqual({ pii: false, kinds: [], findings: [] });
  });
});

describe('screenText: several kinds', () => {
  it('lists each kind once in canonical order, findings by position', () => {
    const text = 'Tél 06 12 34 56 78, mail a.b@free.fr, tél 07 81 23 45 67';
    const screening = screenText(text);
    expect(screening.kinds).toEqual(['email', 'phone']);
    expect(screening.findings.map((found) => found.kind)).toEqual(['phone', 'email', 'phone']);
  });

  it('reads a provisional NIR (first digit 3, 4, 7, 8) only after words that announce one', () => {
    expect(screenText('NIR provisoire : 343060989101548').kinds).toEqual(['nir']);
    expect(screenText('Carte 343060989101548').kinds).toEqual(['card']);
  });

  it('does not report the digits of an IBAN as a card or a phone number', () => {
    expect(screenText('FR76 3000 6000 0112 3456 7890 189').kinds).toEqual(['iban']);
  });
});
